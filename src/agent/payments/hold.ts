/** A PaymentHold whose commit or release happens once, whichever comes first (a second call does nothing). */
import type {PaymentHold, PaymentReceipt} from './types.js'

export function createHold(receipt: PaymentReceipt, onCommit: () => void, onRelease: () => void): PaymentHold {
  let settled = false
  const once = (step: () => void) => async () => {
    if (settled) return
    settled = true
    step()
  }
  return {receipt, commit: once(onCommit), release: once(onRelease)}
}

const nothing = () => {}

/** A hold with nothing to give back: a retry served from an entitlement. */
export const freeHold = (receipt: PaymentReceipt): PaymentHold => createHold(receipt, nothing, nothing)
