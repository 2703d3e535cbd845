import {describe, expect, it} from 'vitest'
import {MeshError, rateLimited} from '../../src/lib/errors.js'
import {runHeartbeat, type HeartbeatEvent} from '../../src/agent/heartbeat.js'

function fakeClient(script: Array<Error | 'ok'>) {
  const calls: string[] = []
  return {
    calls,
    client: {
      async token(agentId: string) {
        const next = script.shift() ?? 'ok'
        calls.push('token')
        if (next instanceof Error) throw next
        return {token: `t-${agentId}`} as never
      },
      async patchMe(token: string, body: Record<string, unknown>) {
        calls.push(`patch:${JSON.stringify(body)}`)
        return {ok: true, display_name: 'A', owner_class: 'third-party'} as never
      },
    },
  }
}

const base = (client: ReturnType<typeof fakeClient>['client'], events: HeartbeatEvent[], over = {}) => ({
  client,
  agentId: 'alpha',
  apiKey: 'k',
  loadCard: async () => ({name: 'A', description: 'd', tags: ['t']}),
  intervalMs: 1,
  onEvent: (event: HeartbeatEvent) => events.push(event),
  signal: new AbortController().signal,
  random: () => 0,
  maxBackoffMs: 4,
  ...over,
})

describe('runHeartbeat', () => {
  it('gets a token then pushes description, capabilities = tags and the card', async () => {
    const {client, calls} = fakeClient([])
    const events: HeartbeatEvent[] = []
    expect(await runHeartbeat({...base(client, events), once: true})).toEqual({beats: 1})
    expect(calls).toEqual(['token', 'patch:{"description":"d","capabilities":["t"],"agent_card":{"name":"A","description":"d","tags":["t"]}}'])
    expect(events.map((e) => e.event)).toEqual(['heartbeat', 'stopped'])
  })
  it('retries unreachable and rate-limited registries, honouring Retry-After, then beats', async () => {
    const unreachable = new MeshError('unavailable', 'registry_unreachable', 'down')
    const {client} = fakeClient([unreachable, unreachable, rateLimited('slow down', 0.01)])
    const events: HeartbeatEvent[] = []
    await runHeartbeat({...base(client, events), once: true})
    const retries = events.filter((e) => e.event === 'retry') as Array<Extract<HeartbeatEvent, {event: 'retry'}>>
    expect(retries.map((r) => [r.attempt, r.error.code])).toEqual([[1, 'registry_unreachable'], [2, 'registry_unreachable'], [3, 'rate_limited']])
    // Backoff doubles (jitter 0 → half) and is capped; Retry-After wins when longer.
    expect(retries.map((r) => r.next_in_ms)).toEqual([2, 2, 10])
    expect(events.at(-2)!.event).toBe('heartbeat')
  })
  it('stops on wrong credentials or a refused card', async () => {
    for (const fatal of [new MeshError('unauthorized', 'invalid_credentials', 'no'), new MeshError('invalid', 'card_too_large', 'big')]) {
      const {client} = fakeClient([fatal])
      await expect(runHeartbeat(base(client, []))).rejects.toBe(fatal)
    }
  })
  it('keeps pushing the last good card when the file turns invalid', async () => {
    const {client, calls} = fakeClient([])
    const events: HeartbeatEvent[] = []
    let reads = 0
    const loadCard = async () => {
      reads++
      if (reads > 1) throw new MeshError('invalid', 'invalid_card', 'broken', {field: 'name'})
      return {name: 'Good'}
    }
    await runHeartbeat({...base(client, events), loadCard, once: true})
    expect(events[0]).toMatchObject({event: 'card_invalid', error: {code: 'invalid_card', field: 'name'}})
    expect(calls[1]).toContain('"name":"Good"')
  })
  it('stops when the signal aborts', async () => {
    const {client} = fakeClient([])
    const controller = new AbortController()
    const events: HeartbeatEvent[] = []
    const run = runHeartbeat({...base(client, events), intervalMs: 60_000, signal: controller.signal, onEvent: (e: HeartbeatEvent) => {
      events.push(e)
      if (e.event === 'heartbeat') controller.abort()
    }})
    expect(await run).toEqual({beats: 1})
    expect(events.at(-1)!.event).toBe('stopped')
  })
})
