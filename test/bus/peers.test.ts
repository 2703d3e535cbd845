import {describe, expect, it} from 'vitest'
import {createPeerWatch} from '../../src/bus/peers.js'
import type {Logger} from '../../src/lib/log.js'

const STALE = 1000

function watch() {
  const lines: string[] = []
  const fields: Array<Record<string, unknown>> = []
  const at = (level: string) => (message: string, extra?: Record<string, unknown>) => {
    lines.push(`${level} ${message} ${String(extra?.node_id)}`)
    fields.push(extra ?? {})
  }
  const logger: Logger = {debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error')}
  return {peers: createPeerWatch({nodeId: 'me', staleMs: STALE, logger, area: 'relay'}), lines, fields}
}

describe('peer watch', () => {
  it('logs each change of a peer once: up, silent, swept, back', () => {
    const {peers, lines, fields} = watch()
    expect(peers.checkedAt()).toBeNull()
    peers.observe([{node_id: 'me', seen_at: 0}, {node_id: 'b', seen_at: 0}], 0)
    peers.observe([{node_id: 'me', seen_at: 500}, {node_id: 'b', seen_at: 500}], 500)
    expect(peers.peers()).toEqual([{node_id: 'b', last_seen: new Date(500).toISOString(), live: true}])
    // b stops beating: silent once, however many beats see it stale
    peers.observe([{node_id: 'b', seen_at: 500}], 1600)
    peers.observe([{node_id: 'b', seen_at: 500}], 1700)
    expect(peers.peers()).toEqual([{node_id: 'b', last_seen: new Date(500).toISOString(), live: false}])
    peers.swept([{node_id: 'b', members: 3}])
    expect(peers.peers()).toEqual([])
    // its rows come back stale (a skewed clock) and are swept again: not logged at info twice
    peers.observe([{node_id: 'b', seen_at: 600}], 1800)
    peers.swept([{node_id: 'b', members: 1}])
    // it beats again in time: back
    peers.observe([{node_id: 'b', seen_at: 1900}], 1900)
    expect(lines).toEqual(['info peer node up b', 'info peer node silent b', 'info peer node swept b', 'debug peer node swept again b', 'info peer node back b'])
    expect(fields[1]).toEqual({area: 'relay', node_id: 'b', last_seen: new Date(500).toISOString(), silent_ms: 1100})
    expect(fields[2]).toEqual({area: 'relay', node_id: 'b', members: 3})
    expect(peers.peers()).toEqual([{node_id: 'b', last_seen: new Date(1900).toISOString(), live: true}])
    expect(peers.checkedAt()).toBe(new Date(1900).toISOString())
  })

  it('tells a peer that stopped cleanly from one another node swept', () => {
    const {peers, lines} = watch()
    peers.observe([{node_id: 'b', seen_at: 0}, {node_id: 'c', seen_at: 900}], 1000)
    // both rows vanish: c was fresh (clean stop), b was past the window (swept elsewhere)
    peers.observe([], 1100)
    expect(lines).toEqual(['info peer node up b', 'info peer node up c', 'info peer node silent b', 'info peer node left c'])
    expect(peers.peers()).toEqual([])
  })

  it('logs a peer first seen already stale as silent, and never lists itself', () => {
    const {peers, lines} = watch()
    peers.observe([{node_id: 'me', seen_at: 0}, {node_id: 'old', seen_at: 0}], 5000)
    peers.swept([{node_id: 'me', members: 9}])
    expect(lines).toEqual(['info peer node silent old'])
    expect(peers.peers().map((p) => p.node_id)).toEqual(['old'])
  })
})
