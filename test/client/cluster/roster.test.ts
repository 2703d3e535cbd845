import {describe, expect, it} from 'vitest'
import {Roster} from '../../../src/client/cluster/roster.js'

const ready = (you: string, online: string[]) => ({type: 'ready' as const, you, you_did: null, public: false, owner: false, online})
const presence = (agent: string, status: 'online' | 'offline', did: string | null = null) => ({type: 'presence' as const, agent, did, status})

describe('Roster', () => {
  it('starts from ready.online, you first', () => {
    const roster = new Roster()
    roster.applyReady(ready('bob', ['zed', 'bob', 'ada']))
    expect(roster.list().map((e) => [e.agent, e.status, e.you])).toEqual([
      ['bob', 'online', true],
      ['ada', 'online', false],
      ['zed', 'online', false],
    ])
    expect(roster.self).toBe('bob')
  })

  it('follows presence and keeps leavers as offline', () => {
    const roster = new Roster()
    roster.applyReady(ready('me', ['me']))
    expect(roster.applyPresence(presence('ada', 'online', 'did:key:z1'))).toBe(true)
    expect(roster.online()).toEqual(['me', 'ada'])
    expect(roster.applyPresence(presence('ada', 'offline'))).toBe(true)
    expect(roster.online()).toEqual(['me'])
    expect(roster.list()[1]).toEqual({agent: 'ada', did: 'did:key:z1', status: 'offline', sockets: 0, you: false})
  })

  it('counts duplicate handles per socket; the handle stays online until its last socket leaves', () => {
    const roster = new Roster()
    roster.applyReady(ready('me', ['me', 'twin', 'twin']))
    roster.applyPresence(presence('twin', 'offline'))
    expect(roster.online()).toContain('twin')
    roster.applyPresence(presence('twin', 'offline'))
    expect(roster.online()).not.toContain('twin')
    // An extra offline (missed the online) never goes negative.
    expect(roster.applyPresence(presence('twin', 'offline'))).toBe(false)
    expect(roster.list().find((e) => e.agent === 'twin')?.sockets).toBe(0)
  })

  it('a ghost sees itself though ready.online omits it', () => {
    const roster = new Roster()
    roster.applyReady(ready('ghosty', ['ada']))
    expect(roster.list()[0]).toMatchObject({agent: 'ghosty', you: true, status: 'offline'})
  })

  it('a new ready replaces the old snapshot (reconnect)', () => {
    const roster = new Roster()
    roster.applyReady(ready('me', ['me', 'ada']))
    roster.markAllOffline()
    expect(roster.online()).toEqual([])
    roster.applyReady(ready('me', ['me', 'bob']))
    expect(roster.online()).toEqual(['me', 'bob'])
    expect(roster.list().map((e) => e.agent)).toEqual(['me', 'bob', 'ada'])
  })
})
