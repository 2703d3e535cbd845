import {describe, expect, it} from 'vitest'
import {ClusterConnection} from '../../../src/client/cluster/connection.js'
import {MAX_QUEUED_FRAMES} from '../../../src/client/cluster/constants.js'

describe('ClusterConnection send queue', () => {
  it('queues sends while not connected and refuses the one past the cap, keeping the queued ones', () => {
    const connection = new ClusterConnection({url: 'ws://127.0.0.1:9/v1/clusters/c_x/ws?agent=a', clusterId: 'c_x'})
    for (let i = 0; i < MAX_QUEUED_FRAMES; i++) connection.broadcast(`line ${i}`)
    expect(() => connection.broadcast('one too many')).toThrow(expect.objectContaining({code: 'send_queue_full', kind: 'rate_limited'}))
    expect((connection as unknown as {queue: string[]}).queue[0]).toBe(JSON.stringify({payload: 'line 0'}))
    expect(() => connection.broadcast('x'.repeat(64 * 1024))).toThrow(expect.objectContaining({code: 'frame_too_large'}))
  })
})
