import {createMemoryRegistryStore} from '../../../src/registry/store/store.js'
import {registryStoreContract} from './store.contract.js'

registryStoreContract('memory', async () => ({store: createMemoryRegistryStore(), cleanup: async () => {}}))
