/**
 * A local Solana JSON-RPC 2.0 node for tests: answers `getTransaction`
 * (jsonParsed), `getSignaturesForAddress` and `getSlot` in the shapes the
 * Solana RPC documentation gives, from transactions a test adds. It can also
 * answer a JSON-RPC error, an HTTP 500, or never answer (for timeouts), and
 * records every call so a test can assert "no chain call".
 */
import {randomBytes} from 'node:crypto'
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'

export const SYSTEM_PROGRAM = '11111111111111111111111111111111'
export const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** Base58 (Bitcoin alphabet), as Solana writes addresses and signatures. */
export function base58(bytes: Uint8Array): string {
  let value = 0n
  for (const byte of bytes) value = value * 256n + BigInt(byte)
  let out = ''
  while (value > 0n) {
    out = ALPHABET[Number(value % 58n)] + out
    value /= 58n
  }
  for (const byte of bytes) {
    if (byte !== 0) break
    out = '1' + out
  }
  return out
}

/** A fresh random address (32 bytes; the first byte is non-zero so the text is 43–44 characters). */
export const randomAddress = (): string => base58(Uint8Array.from([1 + (randomBytes(1)[0] % 255), ...randomBytes(31)]))
/** A fresh random transaction signature (64 bytes). */
export const randomSignature = (): string => base58(Uint8Array.from([1 + (randomBytes(1)[0] % 255), ...randomBytes(63)]))

export interface TestTransfer {
  from: string
  to: string
  lamports: number | bigint
  /** Default `transfer`. */
  kind?: 'transfer' | 'transferWithSeed'
}

export interface AddTransaction {
  /** Default: a random signature. */
  signature?: string
  /** Fee payer and source of the transfer. */
  payer: string
  to: string
  lamports: number | bigint
  /** Further transfers in the same transaction. */
  transfers?: TestTransfer[]
  /** The memo text; null or absent: no memo. */
  memo?: string | null
  /** Where the memo shows: a parsed top-level instruction (default), an inner instruction, or only a log line. */
  memoIn?: 'instruction' | 'inner' | 'log'
  /** The transaction error (`meta.err`); default null. */
  err?: unknown
  /** Default true; false: the node answers null and does not list it until `confirm(signature)`. */
  confirmed?: boolean
  /** Unix seconds; default the server clock. */
  blockTime?: number | null
}

export type FailureMode = 'rpc_error' | 'http_500' | 'hang'

export interface RpcCall {
  method: string
  params: unknown[]
}

export interface SolanaRpcServer {
  url: string
  /** Every JSON-RPC call received, in order. */
  calls: RpcCall[]
  /** Adds a transaction; returns its signature. */
  addTransaction(tx: AddTransaction): string
  /** Marks an unconfirmed transaction confirmed. */
  confirm(signature: string): void
  /** From now on every call fails this way; null answers normally again. */
  fail(mode: FailureMode | null): void
  /** The memo a stored transaction carries, or null. */
  memoOf(signature: string): string | null
  /** Calls of `method` so far. */
  callsOf(method: string): RpcCall[]
  close(): Promise<void>
}

interface Stored {
  signature: string
  slot: number
  order: number
  confirmed: boolean
  accounts: string[]
  body: Record<string, unknown>
  err: unknown
  memo: string | null
  blockTime: number | null
}

export interface SolanaRpcOptions {
  /** Milliseconds clock for default block times; default Date.now. */
  clock?: () => number
}

/** Starts the node on 127.0.0.1, port 0. */
export async function startSolanaRpc(options: SolanaRpcOptions = {}): Promise<SolanaRpcServer> {
  const clock = options.clock ?? Date.now
  const calls: RpcCall[] = []
  const transactions = new Map<string, Stored>()
  let slot = 1000
  let order = 0
  let failure: FailureMode | null = null

  function build(tx: AddTransaction): Stored {
    const signature = tx.signature ?? randomSignature()
    const transfers: TestTransfer[] = [{from: tx.payer, to: tx.to, lamports: tx.lamports}, ...(tx.transfers ?? [])]
    const accounts = [...new Set([tx.payer, ...transfers.flatMap((t) => [t.from, t.to]), SYSTEM_PROGRAM, ...(tx.memo != null ? [MEMO_PROGRAM] : [])])]
    const memo = tx.memo ?? null
    const memoIn = tx.memoIn ?? 'instruction'
    const memoInstruction = memo === null ? null : {program: 'spl-memo', programId: MEMO_PROGRAM, parsed: memo, stackHeight: null}
    const instructions: unknown[] = transfers.map((t) => ({
      program: 'system',
      programId: SYSTEM_PROGRAM,
      parsed: {
        type: t.kind ?? 'transfer',
        info:
          t.kind === 'transferWithSeed'
            ? {source: t.from, sourceBase: t.from, sourceSeed: 'seed', sourceOwner: SYSTEM_PROGRAM, destination: t.to, lamports: Number(t.lamports)}
            : {source: t.from, destination: t.to, lamports: Number(t.lamports)},
      },
      stackHeight: null,
    }))
    if (memoInstruction && memoIn === 'instruction') instructions.push(memoInstruction)
    // A memo the node could not parse shows as raw data plus the memo program's log line.
    if (memo !== null && memoIn === 'log') instructions.push({programId: MEMO_PROGRAM, accounts: [], data: '3Bxs4h24hBtQy9rw', stackHeight: null})
    const innerInstructions = memoInstruction && memoIn === 'inner' ? [{index: 0, instructions: [{...memoInstruction, stackHeight: 2}]}] : []
    const logMessages = [`Program ${SYSTEM_PROGRAM} invoke [1]`, `Program ${SYSTEM_PROGRAM} success`]
    if (memo !== null) logMessages.push(`Program ${MEMO_PROGRAM} invoke [1]`, `Program log: Memo (len ${Buffer.byteLength(memo)}): ${JSON.stringify(memo)}`, `Program ${MEMO_PROGRAM} success`)
    const preBalances = accounts.map(() => 10_000_000_000)
    const postBalances = accounts.map((account) => {
      let balance = 10_000_000_000
      for (const t of transfers) {
        if (t.from === account) balance -= Number(t.lamports)
        if (t.to === account) balance += Number(t.lamports)
      }
      return account === tx.payer ? balance - 5000 : balance
    })
    const err = tx.err ?? null
    const blockTime = tx.blockTime === undefined ? Math.floor(clock() / 1000) : tx.blockTime
    slot += 1
    order += 1
    return {
      signature,
      slot,
      order,
      confirmed: tx.confirmed ?? true,
      accounts,
      err,
      memo,
      blockTime,
      body: {
        slot,
        blockTime,
        meta: {
          err,
          status: err === null ? {Ok: null} : {Err: err},
          fee: 5000,
          preBalances,
          postBalances,
          innerInstructions,
          logMessages,
          preTokenBalances: [],
          postTokenBalances: [],
          rewards: [],
          loadedAddresses: {readonly: [], writable: []},
          computeUnitsConsumed: 450,
        },
        transaction: {
          signatures: [signature],
          message: {
            accountKeys: accounts.map((pubkey, index) => ({
              pubkey,
              signer: pubkey === tx.payer,
              writable: index === 0 || transfers.some((t) => t.to === pubkey || t.from === pubkey),
              source: 'transaction',
            })),
            instructions,
            recentBlockhash: randomAddress(),
            addressTableLookups: [],
          },
        },
        version: 0,
      },
    }
  }

  function answer(method: string, params: unknown[]): unknown {
    switch (method) {
      case 'getSlot':
        return slot
      case 'getTransaction': {
        const found = transactions.get(String(params[0]))
        return found && found.confirmed ? found.body : null
      }
      case 'getSignaturesForAddress': {
        const account = String(params[0])
        const config = (params[1] ?? {}) as {limit?: number; before?: string; until?: string}
        let list = [...transactions.values()].filter((tx) => tx.confirmed && tx.accounts.includes(account)).sort((a, b) => b.slot - a.slot || b.order - a.order)
        if (config.before) {
          const at = list.findIndex((tx) => tx.signature === config.before)
          list = at < 0 ? [] : list.slice(at + 1)
        }
        if (config.until) {
          const at = list.findIndex((tx) => tx.signature === config.until)
          if (at >= 0) list = list.slice(0, at)
        }
        return list.slice(0, config.limit ?? 1000).map((tx) => ({
          signature: tx.signature,
          slot: tx.slot,
          err: tx.err,
          memo: tx.memo === null ? null : `[${Buffer.byteLength(tx.memo)}] ${tx.memo}`,
          blockTime: tx.blockTime,
          confirmationStatus: 'confirmed',
        }))
      }
      default:
        throw Object.assign(new Error(`Method not found`), {rpcCode: -32601})
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    let message: {id?: unknown; method?: string; params?: unknown[]}
    try {
      message = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      return send(response, 200, {jsonrpc: '2.0', id: null, error: {code: -32700, message: 'Parse error'}})
    }
    const method = String(message.method)
    calls.push({method, params: message.params ?? []})
    if (failure === 'hang') return // never answers; close() drops the socket
    if (failure === 'http_500') return send(response, 500, {message: 'Internal Server Error'})
    if (failure === 'rpc_error') return send(response, 200, {jsonrpc: '2.0', id: message.id, error: {code: -32005, message: 'Node is unhealthy', data: {}}})
    try {
      send(response, 200, {jsonrpc: '2.0', id: message.id, result: answer(method, message.params ?? [])})
    } catch (error) {
      send(response, 200, {jsonrpc: '2.0', id: message.id, error: {code: (error as {rpcCode?: number}).rpcCode ?? -32603, message: (error as Error).message}})
    }
  }

  const server = createServer((request, response) => void handle(request, response))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    addTransaction(tx) {
      const stored = build(tx)
      transactions.set(stored.signature, stored)
      return stored.signature
    },
    confirm(signature) {
      const stored = transactions.get(signature)
      if (stored) stored.confirmed = true
    },
    fail(mode) {
      failure = mode
    },
    memoOf: (signature) => transactions.get(signature)?.memo ?? null,
    callsOf: (method) => calls.filter((call) => call.method === method),
    close() {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function send(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, {'content-type': 'application/json'})
  response.end(JSON.stringify(body))
}
