/**
 * The agent's chain client: the two JSON-RPC reads pay-per-call needs
 * (spec: Pay-per-call wire flow 4 and the prepaid job), with a timeout, and
 * every failure of the node turned into one 503 (DECISIONS: RPC failures).
 *
 * Why @solana/rpc + @solana/addresses and not the whole @solana/kit: kit
 * re-exports these same packages plus signers, transaction building, codecs
 * and subscriptions, none of which an agent that only reads two RPC methods
 * needs. Measured on Node 20.20 (fresh process, `await import`, 3 runs):
 * @solana/rpc + @solana/addresses 8.4.0 load in 36–66 ms and add ~7 MB RSS;
 * @solana/kit 8.4.0 loads in 156–302 ms and adds ~16 MB RSS (43 packages,
 * 31 MB on disk against ~18 MB). Response shapes and the RPC method types are
 * the library's (GetTransactionApi, GetSignaturesForAddressApi), not ours.
 */
import {address} from '@solana/addresses'
import {createSolanaRpc, type GetTransactionApi} from '@solana/rpc'
import {MeshError} from '../../lib/errors.js'
import {CHAIN_RETRY_AFTER_SECONDS, DEFAULT_RPC_TIMEOUT_MS, SIGNATURES_PAGE_LIMIT} from './constants.js'
import type {ParsedTransaction} from './transaction.js'

type Signature = Parameters<GetTransactionApi['getTransaction']>[0]

/** One entry of `getSignaturesForAddress` (newest first). */
export interface SignatureEntry {
  signature: string
  slot: bigint | number
  blockTime: bigint | number | null
  err: unknown
  memo: string | null
  confirmationStatus: string | null
}

export interface SignaturesQuery {
  /** Stop before this signature (the newest one already processed). */
  until?: string
  /** Start after this signature (paging back in time). */
  before?: string
  limit?: number
}

export interface ChainClient {
  /** The transaction, jsonParsed at commitment confirmed; null when the node has no confirmed transaction under that signature. */
  getTransaction(signature: string): Promise<ParsedTransaction | null>
  /** Signatures touching `account`, newest first, at commitment confirmed. */
  getSignaturesForAddress(account: string, query?: SignaturesQuery): Promise<SignatureEntry[]>
}

export interface ChainClientOptions {
  /** The chain node (`--rpc-url`); configuration only (spec Versioning 5). */
  rpcUrl: string
  /** Per request; default 10 s. */
  timeoutMs?: number
}

/** A chain client over @solana/rpc. Failures and timeouts throw MeshError `unavailable` / `chain_unavailable` with `retry_after`. */
export function createChainClient(options: ChainClientOptions): ChainClient {
  const rpc = createSolanaRpc(options.rpcUrl)
  const timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS

  async function send<T>(request: {send(config: {abortSignal: AbortSignal}): Promise<T>}): Promise<T> {
    const abortSignal = AbortSignal.timeout(timeoutMs)
    try {
      return await request.send({abortSignal})
    } catch (error) {
      throw chainUnavailable(error, abortSignal.aborted ? timeoutMs : null)
    }
  }

  return {
    async getTransaction(signature) {
      const request = rpc.getTransaction(signature as Signature, {
        encoding: 'jsonParsed',
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      })
      return (await send(request)) as unknown as ParsedTransaction | null
    },
    async getSignaturesForAddress(account, query = {}) {
      const request = rpc.getSignaturesForAddress(address(account), {
        commitment: 'confirmed',
        limit: query.limit ?? SIGNATURES_PAGE_LIMIT,
        ...(query.until ? {until: query.until as Signature} : {}),
        ...(query.before ? {before: query.before as Signature} : {}),
      })
      return (await send(request)) as unknown as SignatureEntry[]
    },
  }
}

/**
 * The one error of an unreachable, failing or slow node. The message names
 * no URL: an rpc URL often carries a provider's API key.
 */
export function chainUnavailable(cause: unknown, timedOutAfterMs: number | null): MeshError {
  const message =
    timedOutAfterMs === null
      ? 'The chain node could not be asked to check the payment (it answered with an error); nothing was charged, retry shortly'
      : `The chain node did not answer within ${timedOutAfterMs / 1000} s; nothing was charged, retry shortly`
  return new MeshError('unavailable', 'chain_unavailable', message, {cause, details: {retry_after: CHAIN_RETRY_AFTER_SECONDS}})
}
