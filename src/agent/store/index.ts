/** The agent's own pay-per-call state (SQLite, area `agent_payments`). */
export {createSqlitePaymentStore} from './sqlite.js'
export {AGENT_PAYMENTS_AREA, AGENT_PAYMENTS_MIGRATIONS} from './migrations.js'
export type * from './store.js'
export {AGENT_NONCES_MIGRATIONS, createSqliteNonceStore} from './mesh-sig-nonces.js'
