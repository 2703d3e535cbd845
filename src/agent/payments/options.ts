/** createPayments' options: defaults under the caller's values, one TypeError sentence per wrong value. */
import type {Logger} from '../../lib/log.js'
import {silentLogger} from '../../lib/log.js'
import {isPaid, skillPricing, type PublicCard} from '../../protocol/agent-card.js'
import type {SqliteDatabase} from '../../store/sqlite.js'
import {isSolanaAddress} from '../solana/address.js'
import {DEFAULT_RPC_TIMEOUT_MS} from '../solana/constants.js'
import {
  DEFAULT_FREE_PER_DAY,
  DEFAULT_LABEL,
  DEFAULT_MAX_STORED_ANSWER_BYTES,
  DEFAULT_NETWORK,
  DEFAULT_NONCE_TTL_MS,
  DEFAULT_TOPUP_INTERVAL_MS,
  TOPUP_INTERVAL_MAX_MS,
  TOPUP_INTERVAL_MIN_MS,
} from './constants.js'

export interface CreatePaymentsOptions {
  /** The agent wallet's public address (base58). Its private key is never asked for nor read. */
  wallet: string
  /** The chain node's JSON-RPC URL (`--rpc-url`); configuration only (spec Versioning 5). */
  rpcUrl: string
  /** `X-Payment-Network` and the offer's `network`; default `solana-devnet`. */
  network?: string
  /** Free calls per caller per 24 h, counted against the Mesh-Sig pubkey and the IP; default 10; 0 = none. */
  freePerDay?: number
  /**
   * Prepaid: lamports one credit costs (one credit = one call). Default: the
   * highest per-call price among the paid skills of `card`, so one credit
   * always covers any call. Without either, prepaid is off (no `topup`).
   */
  lamportsPerCredit?: bigint | number | string
  /** The agent's PublicCard: its name labels payment URIs; its prices set the default `lamportsPerCredit`. */
  card?: PublicCard
  /** The Solana Pay `label`; default the card's name, else "mesh agent". */
  label?: string
  /** How often the deposit scan runs, 60,000–300,000 ms; default 120,000. */
  topupIntervalMs?: number
  /** Nonce lifetime and the retry window of a served proof (how long its answer is kept); default 10 minutes. */
  nonceTtlMs?: number
  /** The largest paid answer (JSON body bytes) kept for a retry with the same proof; default 1 MiB; 0 keeps none. */
  maxStoredAnswerBytes?: number
  /** One chain request's timeout; default 10 s. */
  rpcTimeoutMs?: number
  /** Milliseconds clock; default Date.now. */
  clock?: () => number
  /** The agent's data dir: the state lives in `<dataDir>/mesh.db`. */
  dataDir?: string
  /** An open database instead of `dataDir` (not closed by the gate). Neither: an in-memory database. */
  db?: SqliteDatabase
  logger?: Logger
}

export interface PaymentsConfig {
  wallet: string
  rpcUrl: string
  network: string
  freePerDay: number
  /** null: prepaid is off. */
  lamportsPerCredit: bigint | null
  label: string
  topupIntervalMs: number
  nonceTtlMs: number
  maxStoredAnswerBytes: number
  rpcTimeoutMs: number
  clock: () => number
  dataDir?: string
  db?: SqliteDatabase
  logger: Logger
}

const fail = (message: string): never => {
  throw new TypeError(`createPayments: ${message}`)
}

const isWholeNumber = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value)

function positiveLamports(value: bigint | number | string, name: string): bigint {
  let lamports: bigint | null = null
  if (typeof value === 'bigint') lamports = value
  else if (isWholeNumber(value)) lamports = BigInt(value)
  else if (typeof value === 'string' && /^\d+$/.test(value)) lamports = BigInt(value)
  if (lamports === null || lamports <= 0n) fail(`${name} must be a positive integer of lamports (got ${String(value)})`)
  return lamports as bigint
}

/** The highest lamports price among the card's paid skills, or null when none is priced in lamports. */
function highestPrice(card: PublicCard): bigint | null {
  let highest: bigint | null = null
  for (const skill of card.skills ?? []) {
    const pricing = skillPricing(skill, card)
    if (!isPaid(pricing) || String(pricing.currency).toLowerCase() !== 'lamports' || !isWholeNumber(pricing.amount)) continue
    const price = BigInt(pricing.amount as number)
    if (highest === null || price > highest) highest = price
  }
  return highest
}

/** Checks the options and fills the defaults. */
export function resolvePaymentsOptions(options: CreatePaymentsOptions): PaymentsConfig {
  if (!options || typeof options !== 'object') fail('options must be an object')
  if (!isSolanaAddress(options.wallet)) fail(`wallet must be a Solana address (base58, 32 bytes); got ${JSON.stringify(options.wallet)}`)
  if (typeof options.rpcUrl !== 'string' || !URL.canParse(options.rpcUrl) || !/^https?:$/.test(new URL(options.rpcUrl).protocol)) {
    fail('rpcUrl must be the http(s) URL of a Solana JSON-RPC node')
  }
  const network = options.network ?? DEFAULT_NETWORK
  if (typeof network !== 'string' || network.trim() === '' || network.length > 64) fail('network must be a non-empty name such as solana-devnet or solana')
  const freePerDay = options.freePerDay ?? DEFAULT_FREE_PER_DAY
  if (!isWholeNumber(freePerDay) || freePerDay < 0) fail(`freePerDay must be a whole number ≥ 0 (got ${String(freePerDay)})`)
  const topupIntervalMs = options.topupIntervalMs ?? DEFAULT_TOPUP_INTERVAL_MS
  if (!isWholeNumber(topupIntervalMs) || topupIntervalMs < TOPUP_INTERVAL_MIN_MS || topupIntervalMs > TOPUP_INTERVAL_MAX_MS) {
    fail(`topupIntervalMs must be between ${TOPUP_INTERVAL_MIN_MS} and ${TOPUP_INTERVAL_MAX_MS} (spec: every 1 to 5 minutes); got ${String(topupIntervalMs)}`)
  }
  const nonceTtlMs = options.nonceTtlMs ?? DEFAULT_NONCE_TTL_MS
  if (!isWholeNumber(nonceTtlMs) || nonceTtlMs <= 0) fail(`nonceTtlMs must be a positive number of milliseconds (got ${String(nonceTtlMs)})`)
  const maxStoredAnswerBytes = options.maxStoredAnswerBytes ?? DEFAULT_MAX_STORED_ANSWER_BYTES
  if (!isWholeNumber(maxStoredAnswerBytes) || maxStoredAnswerBytes < 0) fail(`maxStoredAnswerBytes must be a whole number of bytes ≥ 0 (got ${String(maxStoredAnswerBytes)})`)
  const rpcTimeoutMs = options.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS
  if (!isWholeNumber(rpcTimeoutMs) || rpcTimeoutMs <= 0) fail(`rpcTimeoutMs must be a positive number of milliseconds (got ${String(rpcTimeoutMs)})`)
  if (options.dataDir !== undefined && options.db !== undefined) fail('give dataDir or db, not both')
  if (options.clock !== undefined && typeof options.clock !== 'function') fail('clock must be a function returning milliseconds')
  const label = options.label ?? options.card?.name ?? DEFAULT_LABEL
  if (typeof label !== 'string') fail('label must be a string')

  let lamportsPerCredit: bigint | null = null
  if (options.lamportsPerCredit !== undefined) lamportsPerCredit = positiveLamports(options.lamportsPerCredit, 'lamportsPerCredit')
  else if (options.card) lamportsPerCredit = highestPrice(options.card)

  return {
    wallet: options.wallet,
    rpcUrl: options.rpcUrl,
    network,
    freePerDay,
    lamportsPerCredit,
    label,
    topupIntervalMs,
    nonceTtlMs,
    maxStoredAnswerBytes,
    rpcTimeoutMs,
    clock: options.clock ?? Date.now,
    dataDir: options.dataDir,
    db: options.db,
    logger: options.logger ?? silentLogger,
  }
}
