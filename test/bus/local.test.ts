import {createLocalBus} from '../../src/bus/bus.js'
import {busContract} from './bus.contract.js'

// Two handles on one in-process bus would share a node id, so the contract gets two buses
// joined the way a single process uses one: publications on either reach subscribers of both.
busContract('local', async () => {
  const shared = createLocalBus()
  const other = {...shared, nodeId: shared.nodeId + '-b'}
  return [shared, other]
})
