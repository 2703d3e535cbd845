import {createMemoryMessagingStore} from '../../../src/registry/messaging/store/store.js'
import {messagingStoreContract} from './store.contract.js'

messagingStoreContract('memory', async () => createMemoryMessagingStore())
