import {describe, expect, it} from 'vitest'
import {createMemoryRegistryStore} from '../../../src/registry/store/store.js'
import {createMemoryMessagingStore} from '../../../src/registry/messaging/store/store.js'
import {watchAgentSocket, type WatchEvent} from '../../../src/client/registry/inbox-watch.js'
import type {RegistrySession} from '../../../src/client/registry/registry-client.js'
import {FrameClient, registerAgents, startNode, tokenOf} from '../../registry/messaging/harness.js'

/** Collects frames and events, waking a waiter on each. */
function recorder() {
  const seen: Array<Record<string, unknown> | WatchEvent> = []
  let wake: (() => void) | undefined
  const push = (item: Record<string, unknown> | WatchEvent) => {
    seen.push(item)
    wake?.()
  }
  const until = async (test: (item: Record<string, unknown> | WatchEvent) => boolean, count = 1) => {
    while (seen.filter(test).length < count) await new Promise<void>((resolve) => (wake = resolve))
  }
  return {seen, push, until}
}

describe('watchAgentSocket', () => {
  it('reconnects after the registry restarts and keeps receiving', async () => {
    const registryStore = createMemoryRegistryStore()
    const messagingStore = createMemoryMessagingStore()
    await registerAgents(registryStore, 'ann', 'bob')
    let node = await startNode({store: registryStore}, {store: messagingStore})
    const port = node.server.port
    const session: RegistrySession = {registry: node.url, agentId: 'bob', token: tokenOf('bob'), refresh: async () => tokenOf('bob')}
    const log = recorder()
    const controller = new AbortController()
    const watching = watchAgentSocket({session, signal: controller.signal, onFrame: log.push, onEvent: log.push, random: () => 0})
    try {
      await log.until((i) => 'type' in i && i.type === 'welcome')
      await node.stop()
      await log.until((i) => 'event' in i && i.event === 'reconnecting')
      node = await startNode({store: registryStore}, {store: messagingStore}, port)
      await log.until((i) => 'type' in i && i.type === 'welcome', 2)
      const ann = await FrameClient.connect(node.wsUrl('ann'))
      ann.send({msg_type: 'message', to: 'bob', payload: 'after the restart'})
      await log.until((i) => 'type' in i && i.type === 'message')
      expect(log.seen.find((i) => 'type' in i && i.type === 'message')).toMatchObject({from: 'ann', payload: 'after the restart'})
      await ann.close()
    } finally {
      controller.abort()
      await watching
      await node.stop()
    }
  })

  it('mints a fresh token once when refused, and gives up when that fails too', async () => {
    const node = await startNode()
    await registerAgents(node.ctx.store, 'bob')
    try {
      let refreshed = 0
      const stale: RegistrySession = {registry: node.url, agentId: 'bob', token: 'expired', refresh: async () => (refreshed++, (stale.token = tokenOf('bob')))}
      const log = recorder()
      const controller = new AbortController()
      const watching = watchAgentSocket({session: stale, signal: controller.signal, onFrame: log.push})
      await log.until((i) => 'type' in i && i.type === 'welcome')
      expect(refreshed).toBe(1)
      controller.abort()
      await watching

      const revoked: RegistrySession = {registry: node.url, agentId: 'ghost', token: 'nope', refresh: async () => (revoked.token = 'still-nope')}
      await expect(watchAgentSocket({session: revoked, signal: new AbortController().signal, onFrame: () => {}})).rejects.toMatchObject({code: 'invalid_token'})
    } finally {
      await node.stop()
    }
  })
})
