/** Pay-per-call for agents: createPayments builds the PaymentGate the kit asks (src/agent/kit). */
export {createPayments, type Payments} from './gate.js'
export type {CreatePaymentsOptions} from './options.js'
export type {DepositScan} from './prepaid.js'
export type {PaymentRefusal} from './hints.js'
export type * from './types.js'
