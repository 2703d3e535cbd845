import {describe, expect, it} from 'vitest'
import {decodeEnvelope, encodeEnvelope} from '../../src/cluster/envelope.js'
import {Roster} from '../../src/cluster/roster.js'
import {externalMembers} from '../../src/cluster/views.js'

const entry = (socketId: string, agent: string, vis: 'public' | 'private' | 'ghost' = 'public', nodeId = 'n1') => ({socketId, nodeId, agent, did: null, vis})

describe('Roster', () => {
  it('reports a handle online on its first visible socket and offline on its last', () => {
    const roster = new Roster()
    expect(roster.add(entry('1', 'bob'))).toEqual({agent: 'bob', did: null, status: 'online'})
    expect(roster.add(entry('2', 'bob'))).toBeNull()
    expect(roster.add(entry('2', 'bob'))).toBeNull()
    expect(roster.add(entry('3', 'ghost', 'ghost'))).toBeNull()
    expect(roster.onlineHandles()).toEqual(['bob'])
    expect(roster.countVisible(null)).toBe(2)
    expect(roster.countVisible('bob', '1')).toBe(1)
    expect(roster.countVisible('ghost')).toBe(0)
    expect(roster.remove('1')).toBeNull()
    expect(roster.remove('2')).toEqual({agent: 'bob', did: null, status: 'offline'})
    expect(roster.remove('3')).toBeNull()
    expect(roster.size).toBe(0)
  })
  it('counts visible recipients like a scan of every socket would, through joins and leaves', () => {
    const roster = new Roster()
    const live = new Map<string, ReturnType<typeof entry>>()
    const scan = (agent: string | null, except?: string) =>
      [...live.values()].filter((e) => e.vis !== 'ghost' && e.socketId !== except && (agent === null || e.agent === agent)).length
    // A fixed pseudo-random walk (LCG): duplicate handles, ghosts, leaves of unknown sockets.
    let seed = 7
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n
    const agents = ['ann', 'bob', 'cy']
    const visibilities = ['public', 'private', 'ghost'] as const
    for (let step = 0; step < 500; step++) {
      const id = String(next(40))
      if (next(3) === 0) {
        roster.remove(id)
        live.delete(id)
      } else if (!live.has(id)) {
        const e = entry(id, agents[next(3)], visibilities[next(3)])
        roster.add(e)
        live.set(id, e)
      }
      const except = String(next(45))
      for (const agent of [null, ...agents, 'nobody']) expect(roster.countVisible(agent, except)).toBe(scan(agent, except))
      expect(roster.countVisible(null)).toBe(scan(null))
    }
  })
  it('finds sockets of nodes that are gone', () => {
    const roster = new Roster()
    roster.add(entry('1', 'a', 'public', 'n1'))
    roster.add(entry('2', 'b', 'public', 'n2'))
    expect(roster.socketsOutside(new Set(['n1']))).toEqual(['2'])
  })
})

describe('envelopes', () => {
  it('round-trip a header and the frame bytes, and drop garbage', () => {
    const frame = Buffer.from('{"type":"message","payload":"a\\nb"}')
    const decoded = decodeEnvelope(encodeEnvelope({k: 'msg', node: 'n', to: null}, frame))
    expect(decoded?.header).toEqual({k: 'msg', node: 'n', to: null})
    expect(decoded?.frame.equals(frame)).toBe(true)
    expect(decodeEnvelope(Buffer.from('no newline'))).toBeNull()
    expect(decodeEnvelope(Buffer.from('{bad\n'))).toBeNull()
    expect(decodeEnvelope(Buffer.from('{"k":1}\n'))).toBeNull()
  })
})

describe('externalMembers', () => {
  it('shows public handles, masks private ones by position and omits ghosts', () => {
    const e = (agent: string, vis: 'public' | 'private' | 'ghost', did: string | null = null) => ({cluster_id: 'c', node_id: 'n', socket_id: agent + vis, agent, did, vis, joined_at: 0})
    expect(externalMembers([e('a', 'public', 'did:key:a'), e('g', 'ghost'), e('p', 'private', 'did:key:p'), e('b', 'private'), e('b', 'public')])).toEqual([
      {agent: 'a', did: 'did:key:a'},
      {agent: 'member #2', did: null},
      {agent: 'b', did: null},
    ])
  })
})
