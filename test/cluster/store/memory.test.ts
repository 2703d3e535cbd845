import {createMemoryClusterStore} from '../../../src/cluster/store/store.js'
import {clusterStoreContract} from './store.contract.js'

clusterStoreContract('memory', async () => ({store: createMemoryClusterStore(), close: async () => {}}))
