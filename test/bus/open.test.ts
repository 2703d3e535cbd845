import {describe, expect, it} from 'vitest'
import {openBus} from '../../src/bus/open.js'
import {busContract} from './bus.contract.js'

// The bus a single-node server opens: one in-process bus (see local.test.ts for why the second handle differs).
busContract('openBus without a NATS URL', async () => {
  const shared = await openBus({name: 'mesh-test'})
  return [shared, {...shared, nodeId: shared.nodeId + '-b'}]
})

describe('openBus', () => {
  it('opens the local bus when no NATS URL is given, always connected', async () => {
    const bus = await openBus({name: 'mesh-test', natsUrl: ''})
    expect(bus.status()).toMatchObject({kind: 'local', connected: true, reconnects: 0})
    await bus.close()
  })
})
