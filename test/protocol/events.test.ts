import {describe, expect, it} from 'vitest'
import {parseDaemonEvent} from '../../src/protocol/events.js'

describe('the /events envelope (DECISIONS: Daemon events)', () => {
  it('reads `{type, ts, data}` with an object data', () => {
    const event = {type: 'task.updated', ts: '2026-01-05T10:00:00.000Z', data: {id: 'API2', to: 'next'}}
    expect(parseDaemonEvent(JSON.stringify(event))).toEqual(event)
    expect(parseDaemonEvent(JSON.stringify({type: 'cluster.updated', ts: event.ts, data: {}}))).toEqual({type: 'cluster.updated', ts: event.ts, data: {}})
  })

  it('drops what is not JSON or not an envelope', () => {
    for (const text of ['', 'not json', '{"type": "x"', 'null', '42', '"task.updated"', '[]', '{"type": 1, "data": {}}', '{"type": "x"}', '{"type": "x", "data": null}', '{"type": "x", "data": "text"}']) {
      expect(parseDaemonEvent(text), text).toBeNull()
    }
  })
})
