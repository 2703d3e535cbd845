import {createNatsBus} from '../../src/bus/nats.js'
import {NATS_URL, uniqueNatsPrefix} from '../support/backends.js'
import {busContract} from './bus.contract.js'

busContract('nats (real server)', async () => {
  const prefix = uniqueNatsPrefix()
  return [await createNatsBus({url: NATS_URL, prefix}), await createNatsBus({url: NATS_URL, prefix})]
})
