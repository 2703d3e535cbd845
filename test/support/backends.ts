import {randomBytes} from 'node:crypto'
import pg from 'pg'

/** The real backends of the dev and CI machines (DEVELOPERS.md); override with env vars. */
export const PG_URL = process.env.MESH_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const NATS_URL = process.env.MESH_TEST_NATS_URL ?? 'nats://127.0.0.1:4222'

/** A schema name unique to this test run, e.g. mesh_t_3fa9c2. */
export const uniqueSchema = (label = 't') => `mesh_${label}_${randomBytes(5).toString('hex')}`

/** A unique subject prefix, so parallel runs on one NATS server never see each other. */
export const uniqueNatsPrefix = () => `meshtest${randomBytes(5).toString('hex')}`

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({connectionString: PG_URL})
  await client.connect()
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  } finally {
    await client.end()
  }
}

/** Every message published under `prefix` on the real NATS server, as `<subject> <text>` lines; to show a refusal put nothing on the bus. */
export async function recordNats(prefix: string): Promise<{published: string[]; close(): Promise<void>}> {
  const {createNatsBus} = await import('../../src/bus/nats.js')
  const published: string[] = []
  const bus = await createNatsBus({url: NATS_URL, prefix})
  bus.subscribe('>', (data, subject) => void published.push(`${subject} ${Buffer.from(data).toString('utf8')}`))
  await bus.flush()
  return {published, close: () => bus.close()}
}
