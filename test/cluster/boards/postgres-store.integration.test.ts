import {afterAll} from 'vitest'
import {createPostgresBoardStore} from '../../../src/cluster/boards/postgres.js'
import {openPostgres} from '../../../src/store/postgres.js'
import {PG_URL, dropSchema, uniqueSchema} from '../../support/backends.js'
import {boardStoreContract} from './store.contract.js'

const schema = uniqueSchema('boards')
afterAll(() => dropSchema(schema))

boardStoreContract('postgres', async () => {
  const pool = await openPostgres({url: PG_URL, schema})
  const store = await createPostgresBoardStore(pool)
  // One schema for the file: each test starts from empty tables.
  await pool.query('TRUNCATE cluster_boards, cluster_board_posts')
  return {store, close: () => pool.end()}
})
