import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import type {Bus} from '../../src/bus/bus.js'

/** Behaviour every Bus must show; each adapter's test file calls this. */
export function busContract(name: string, make: () => Promise<[Bus, Bus]>) {
  describe(`Bus contract: ${name}`, () => {
    let a: Bus
    let b: Bus
    beforeEach(async () => {
      ;[a, b] = await make()
    })
    afterEach(async () => {
      await a.close()
      if (b !== a) await b.close()
    })

    const received = (bus: Bus, subject: string) => {
      const got: string[] = []
      const stop = bus.subscribe(subject, (data, s) => got.push(`${s}:${Buffer.from(data).toString()}`))
      return {got, stop}
    }
    const settle = async () => {
      await a.flush()
      await b.flush()
      await new Promise((r) => setTimeout(r, 50))
    }

    it('delivers a publication to a subscriber of the exact subject', async () => {
      const sub = received(b, 'room.1')
      await b.flush()
      a.publish('room.1', Buffer.from('hi'))
      await settle()
      expect(sub.got).toEqual(['room.1:hi'])
    })
    it('does not deliver other subjects, and stops after unsubscribe', async () => {
      const sub = received(b, 'room.1')
      await b.flush()
      a.publish('room.2', Buffer.from('no'))
      await settle()
      sub.stop()
      await b.flush()
      a.publish('room.1', Buffer.from('late'))
      await settle()
      expect(sub.got).toEqual([])
    })
    it('matches a trailing > wildcard', async () => {
      const sub = received(b, 'agents.>')
      await b.flush()
      a.publish('agents.x.inbox', Buffer.from('1'))
      a.publish('other.x', Buffer.from('2'))
      await settle()
      expect(sub.got).toEqual(['agents.x.inbox:1'])
    })
    it('gives each bus its own node id', () => {
      expect(a.nodeId).not.toBe(b.nodeId)
    })
    it('reports itself connected while open, with its kind and the time of the last change', () => {
      const status = a.status()
      expect(status).toMatchObject({connected: true, reconnects: 0})
      expect(['local', 'nats']).toContain(status.kind)
      expect(Number.isNaN(Date.parse(status.since))).toBe(false)
    })
  })
}
