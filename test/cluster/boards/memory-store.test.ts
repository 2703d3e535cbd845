import {createMemoryBoardStore} from '../../../src/cluster/boards/store.js'
import {boardStoreContract} from './store.contract.js'

boardStoreContract('memory', async () => ({store: createMemoryBoardStore(), close: async () => {}}))
