/** A PaymentHold whose commit or release happens once, whichever comes first (a second call does nothing). */
import type {PaidAnswer, PaymentHold, PaymentReceipt} from './types.js'

export function createHold(receipt: PaymentReceipt, onCommit: (answer?: PaidAnswer) => void, onRelease: () => void): PaymentHold {
  let settled = false
  return {
    receipt,
    async commit(answer) {
      if (settled) return
      settled = true
      onCommit(answer)
    },
    async release() {
      if (settled) return
      settled = true
      onRelease()
    },
  }
}
