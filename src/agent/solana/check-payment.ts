/**
 * The four checks of a payment proof (spec: Pay-per-call wire flow 4, Paid
 * call table): confirmed without error; destination = the agent wallet;
 * amount ≥ price; memo contains the issued nonce. Pure: the chain lookup and
 * the nonce bookkeeping happen elsewhere.
 */
import {lamportsTo, memosOf, nativeTransfers, type ParsedTransaction} from './transaction.js'

/** Which check failed, in the order they are made. */
export type PaymentCheckFailure =
  /** The node has no confirmed transaction under that signature (null, or no status yet). */
  | 'unconfirmed'
  /** Confirmed, but the transaction failed (`meta.err` is set): nothing moved. */
  | 'failed'
  /** No native transfer to the agent wallet. */
  | 'wrong_destination'
  /** Transfers to the wallet add up to less than the price. */
  | 'short_amount'
  /** No memo at all. */
  | 'missing_memo'
  /** Memos, none containing the expected nonce. */
  | 'memo_mismatch'

export interface PaymentExpectation {
  wallet: string
  /** The price in integer lamports. */
  lamports: bigint
  /** The nonce the memo must contain; null when the caller found none it issued (then a memo fails as `memo_mismatch`). */
  nonce: string | null
}

export type PaymentCheck =
  | {ok: true; paid: bigint}
  | {ok: false; failed: PaymentCheckFailure; paid: bigint}

/**
 * Checks a parsed transaction (`getTransaction`, jsonParsed) against a price,
 * wallet and nonce. `paid` is the sum of native transfers to the wallet.
 */
export function checkPayment(tx: ParsedTransaction | null, expected: PaymentExpectation): PaymentCheck {
  if (!tx || !tx.meta) return {ok: false, failed: 'unconfirmed', paid: 0n}
  const paid = lamportsTo(tx, expected.wallet)
  if (tx.meta.err !== null && tx.meta.err !== undefined) return {ok: false, failed: 'failed', paid}
  if (!nativeTransfers(tx).some((transfer) => transfer.destination === expected.wallet)) return {ok: false, failed: 'wrong_destination', paid}
  if (paid < expected.lamports) return {ok: false, failed: 'short_amount', paid}
  const memos = memosOf(tx)
  if (memos.length === 0) return {ok: false, failed: 'missing_memo', paid}
  const nonce = expected.nonce
  if (!nonce || !memos.some((memo) => memo.includes(nonce))) return {ok: false, failed: 'memo_mismatch', paid}
  return {ok: true, paid}
}
