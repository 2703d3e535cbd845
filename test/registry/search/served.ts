/**
 * The search part with two image agents (painter: operational, probed;
 * sketcher: not probed) listening on a real port, for the search client and
 * `mesh search` tests.
 */
import Koa from 'koa'
import {createLocalBus} from '../../../src/bus/bus.js'
import {errorMiddleware, notFoundMiddleware} from '../../../src/http/error-middleware.js'
import {listen} from '../../../src/http/listen.js'
import {silentLogger} from '../../../src/lib/log.js'
import {createSearchPart} from '../../../src/registry/search/part.js'
import {createMemoryRegistryStore} from '../../../src/registry/store/store.js'
import {agentRecord, probe, putAgent, testContext} from './fixtures.js'

export async function serveSearchFixture(): Promise<{url: string; close(): Promise<void>}> {
  const store = createMemoryRegistryStore()
  const now = Date.now()
  await putAgent(store, agentRecord('painter', {name: 'Painter', description: 'Generates images from text', tags: ['image'], produces: ['image/png']}, {
    lastSeenMs: now,
    probe: probe({operational: true, card_match: '1/1', skills: [{id: 'draw', url: 'https://painter.example.com/v1/draw', answering: true}]}),
  }))
  await putAgent(store, agentRecord('sketcher', {name: 'Sketcher', description: 'Draws images as sketches', tags: ['image'], produces: ['image/svg+xml']}, {lastSeenMs: now}))
  const part = createSearchPart(testContext(store, createLocalBus(), Date.now), {resyncMs: 0})
  const koa = new Koa()
  koa.silent = true
  koa.use(errorMiddleware(silentLogger))
  koa.use(notFoundMiddleware())
  koa.use(part.middleware!)
  const server = await listen(koa.callback())
  return {
    url: server.url,
    async close() {
      await part.close()
      await server.close()
    },
  }
}
