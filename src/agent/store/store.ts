/**
 * What pay-per-call keeps (spec: Paid call table, prepaid alternative;
 * AGENT-KIT "Persistence"): allowance counters, nonces and the call each is
 * bound to, proofs and the answer each one bought, payer bindings and their
 * proof-of-control challenges, credits, seen deposits and the scan cursor.
 *
 * Every method is synchronous and each one that reads then writes runs in
 * one SQLite transaction, so two calls racing in one process (or two
 * processes on one file) cannot both spend the same allowance slot, credit,
 * nonce or proof. There is no separate in-memory implementation: an
 * in-memory SQLite database (openSqlite() without a data dir) is one.
 */

/** A reserved slot of the free allowance: the keys it counted against and their windows. */
export interface AllowanceGrant {
  keys: Array<{key: string; windowStartMs: number}>
  /** Calls left today after this one (the smallest over the keys). */
  left: number
}

export interface NonceRecord {
  nonce: string
  /** The skill path the 402 was for. */
  resource: string
  lamports: bigint
  /** The body hash of the call the 402 was for; null for a nonce issued before bodies were bound (migration 2). */
  bodyHash: string | null
  /** The Mesh-Sig key of the caller that got the 402; null when it was unsigned. */
  signer: string | null
  issuedMs: number
  expiresMs: number
  /** The transaction signature that paid it, once one did. */
  usedBy: string | null
}

/** reserved: a handler runs on it; verified: paid, not served yet (a handler failed); served: spent. */
export type ProofState = 'reserved' | 'verified' | 'served'

/** The answer a served proof bought, as sent: replayed to a retry of the same call. */
export interface StoredAnswer {
  status: number
  /** JSON text. */
  body: string
  headers?: Record<string, string>
}

export interface ProofRecord {
  signature: string
  nonce: string
  resource: string
  bodyHash: string
  /** The key the call is bound to (its nonce's signer); null: any caller, signed or not. */
  signer: string | null
  lamports: bigint
  paidLamports: bigint
  state: ProofState
  verifiedMs: number
  /** For served proofs: the end of the retry window. */
  expiresMs: number | null
  /** For served proofs: the answer, while kept (null above the size cap, or after the window). */
  answer: StoredAnswer | null
  /** For served proofs: the answer's body size in bytes (set even when the answer was too big to keep). */
  answerBytes: number | null
}

/** A proof being claimed: what its record will hold, at `nowMs`. */
export type NewProof = Pick<ProofRecord, 'signature' | 'nonce' | 'resource' | 'bodyHash' | 'signer' | 'lamports' | 'paidLamports'> & {nowMs: number}

export type ClaimResult =
  | {claimed: true; proof: ProofRecord}
  /** Someone verified this signature first (a race): decide from their record. */
  | {claimed: false; reason: 'proof_exists'; proof: ProofRecord}
  /** Another signature already paid this nonce. */
  | {claimed: false; reason: 'nonce_used'}
  /** The deposit scan credited this transaction as prepaid. */
  | {claimed: false; reason: 'credited_deposit'}

/** How a payer address's owner proved control (issue 18); null: bound before proofs were asked (migration 2). */
export type BindingProof = 'signature' | 'memo'

export interface Binding {
  payerAddress: string
  pubkey: string
  boundMs: number
  provenBy: BindingProof | null
}

/** A topup's proof-of-control challenge: the caller key `pubkey` claims `payerAddress` until `expiresMs`. */
export interface PayerChallenge {
  /** 32 lowercase hex characters: in the message to sign, and the memo of a first deposit. */
  nonce: string
  payerAddress: string
  pubkey: string
  issuedMs: number
  expiresMs: number
}

/** What the deposit scan decided about one wallet transaction. */
export type DepositOutcome =
  /** From a bound payer: credited. */
  | 'credited'
  /** From nobody bound (or before the binding). */
  | 'unbound'
  /** Its memo names an issued nonce, or it is a verified proof: a per-call payment, never credit. */
  | 'per_call'
  /** Failed on chain, or moved nothing to the wallet. */
  | 'ignored'

export interface NewDeposit {
  signature: string
  outcome: DepositOutcome
  nowMs: number
  payerAddress?: string
  pubkey?: string
  lamports?: bigint
  lamportsPerCredit?: bigint
}

export interface PaymentStore {
  /** Counts one call against every key if all are under `limit` in their 24 h window; null when any is used up. */
  reserveAllowance(keys: string[], limit: number, nowMs: number, windowMs: number): AllowanceGrant | null
  /** Gives a reserved slot back (a handler failed), if its window is still the current one. */
  releaseAllowance(grant: AllowanceGrant): void

  /** Stores a nonce bound to the call it is issued for (resource, price, body hash, signer). */
  issueNonce(record: Omit<NonceRecord, 'usedBy'>): void
  /** The issued nonces among `nonces` (memo candidates). */
  findNonces(nonces: string[]): NonceRecord[]

  getProof(signature: string): ProofRecord | null
  /** Records a freshly verified proof as reserved and marks its nonce used, atomically. */
  claimProof(proof: NewProof): ClaimResult
  /** A verified (paid, unserved) proof of this same call becomes reserved again; null otherwise. */
  reserveVerifiedProof(signature: string, resource: string, bodyHash: string): ProofRecord | null
  /**
   * The handler succeeded: the proof is spent and its answer kept until
   * `expiresMs` for retries of the same call (`answer` null: too big to keep;
   * `answerBytes` says how big it was).
   */
  serveProof(signature: string, served: {expiresMs: number; answer: StoredAnswer | null; answerBytes: number | null}): void
  /** The handler failed: the proof stays paid and bound to this call. */
  releaseProof(signature: string): void
  /** After a restart no handler is running: reserved proofs go back to verified. Returns how many. */
  releaseStaleReservations(): number

  /**
   * Binds a payer address whose control was proven to a caller key; refuses
   * (returns the holder) when another key holds a proven binding of it. A
   * binding from before proofs were asked (provenBy null) is replaced.
   */
  bindPayer(payerAddress: string, pubkey: string, nowMs: number, provenBy: BindingProof): {bound: true; binding: Binding} | {bound: false; holder: string}
  getBinding(payerAddress: string): Binding | null
  bindings(): Binding[]
  bindingsOf(pubkey: string): Binding[]

  issuePayerChallenge(challenge: PayerChallenge): void
  /** The newest challenge issued to this key for this address (expired or not), or null. */
  latestPayerChallenge(payerAddress: string, pubkey: string): PayerChallenge | null
  /** The issued challenges among `nonces` (memo candidates). */
  findPayerChallenges(nonces: string[]): PayerChallenge[]
  /** The issue time of the oldest challenge kept, or null when there is none (the deposit scan reads back to it). */
  oldestPayerChallengeMs(): number | null

  balance(pubkey: string): number
  /** Debits `units` credits if the balance holds them; returns the balance left, or null. */
  reserveCredits(pubkey: string, units: number): number | null
  refundCredits(pubkey: string, units: number): void

  depositSeen(signature: string): boolean
  /** Records a handled wallet transaction and credits it when `outcome` is credited; idempotent on the signature. Returns the credits added. */
  recordDeposit(deposit: NewDeposit): {recorded: boolean; outcome: DepositOutcome; credits: number}

  getCursor(): string | null
  setCursor(signature: string): void

  /**
   * Drops allowance windows that started before one window ago, unused
   * nonces and payer challenges long expired, and the stored answers of
   * proofs whose retry window ended before `answersExpiredBeforeMs`.
   */
  purge(limits: {windowsStartedBeforeMs: number; noncesExpiredBeforeMs: number; answersExpiredBeforeMs: number}): void
}
