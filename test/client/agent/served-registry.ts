/**
 * A real registry (the in-process harness: memory store, its own clock) on a
 * port, for resolving agent ids: `live(id, card)` registers the agent, sends
 * its heartbeat and stores the PublicCard as the prober's cached copy (what
 * `GET /agent/<id>/.well-known/agent.json` serves). Requests are counted per path.
 */
import {createHostApp} from '../../../src/http/host.js'
import {listen} from '../../../src/http/listen.js'
import {silentLogger} from '../../../src/lib/log.js'
import {createHarness} from '../../registry/harness.js'

export interface ServedRegistry {
  url: string
  /** Paths asked, in order. */
  paths: string[]
  /** Registers `agentId` (endpoint optional), marks it online and caches `card` as if the prober fetched it. */
  live(agentId: string, card: Record<string, unknown> | null, endpoint?: string): Promise<void>
  close(): Promise<void>
}

export async function serveRegistry(): Promise<ServedRegistry> {
  const harness = createHarness()
  const app = createHostApp({services: [harness.registry], logger: silentLogger})
  const paths: string[] = []
  const handler = app.callback()
  const server = await listen((req, res) => {
    paths.push(req.url ?? '')
    void handler(req, res)
  })
  return {
    url: server.url,
    paths,
    async live(agentId, card, endpoint) {
      const registered = await harness.register(agentId, endpoint ? {endpoint} : {})
      await harness.token(agentId, registered.api_key)
      if (card) {
        const at = new Date(harness.now()).toISOString()
        await harness.store.saveProbe(agentId, {probed_at: at, card_fetched_at: at, card, operational: true, card_match: null})
      }
    },
    async close() {
      await server.close()
      await harness.registry.close?.('server_shutdown')
    },
  }
}
