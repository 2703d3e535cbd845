import {describe, expect, it} from 'vitest'
import {openBus} from '../../src/bus/open.js'
import {NATS_URL, uniqueNatsPrefix} from '../support/backends.js'
import {busContract} from './bus.contract.js'

// Two servers of one deployment: two connections to the real NATS server under one prefix.
busContract('openBus with a NATS URL (real server)', async () => {
  const natsPrefix = uniqueNatsPrefix()
  return [await openBus({natsUrl: NATS_URL, natsPrefix, name: 'mesh-test'}), await openBus({natsUrl: NATS_URL, natsPrefix, name: 'mesh-test'})]
})

describe('openBus on NATS', () => {
  it('connects to the real server and keeps deployments with other prefixes apart', async () => {
    const natsPrefix = uniqueNatsPrefix()
    const [a, b, other] = await Promise.all([
      openBus({natsUrl: NATS_URL, natsPrefix, name: 'mesh-test'}),
      openBus({natsUrl: NATS_URL, natsPrefix, name: 'mesh-test'}),
      openBus({natsUrl: NATS_URL, natsPrefix: uniqueNatsPrefix(), name: 'mesh-test'}),
    ])
    expect(a.status()).toMatchObject({kind: 'nats', connected: true})
    const seen: string[] = []
    b.subscribe('room.>', (data, subject) => seen.push(`b ${subject} ${Buffer.from(data)}`))
    other.subscribe('room.>', (data, subject) => seen.push(`other ${subject} ${Buffer.from(data)}`))
    await Promise.all([b.flush(), other.flush()])
    a.publish('room.1', Buffer.from('hello'))
    await a.flush()
    // A round trip through the server on each subscriber's connection: anything published before it has arrived.
    await Promise.all([b.flush(), other.flush()])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(seen).toEqual(['b room.1 hello'])
    await Promise.all([a.close(), b.close(), other.close()])
  })

  it('fails to open when nobody answers at the URL', async () => {
    await expect(openBus({natsUrl: 'nats://127.0.0.1:1', name: 'mesh-test'})).rejects.toThrow()
  })
})
