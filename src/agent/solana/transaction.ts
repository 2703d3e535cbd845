/**
 * The part of a `getTransaction` answer (encoding jsonParsed) the agent reads,
 * and pure readers over it: native transfers and memos. Typed loosely on
 * purpose: integers arrive as bigint through @solana/rpc and as numbers in
 * plain JSON, and the readers accept both.
 */
import {MEMO_LOG_LINE, MEMO_PROGRAM_IDS, SYSTEM_PROGRAM_ID} from './constants.js'

type Integer = number | bigint | string

/** One instruction as jsonParsed shows it: parsed (program + parsed) or raw (programId + data). */
export interface ParsedInstruction {
  program?: string
  programId?: string
  /** `{type, info}` for most programs; a plain string for spl-memo. */
  parsed?: unknown
  [extra: string]: unknown
}

/** A confirmed transaction as `getTransaction(sig, {encoding: 'jsonParsed'})` answers it. */
export interface ParsedTransaction {
  slot?: Integer
  /** Unix seconds the block was produced, or null when the node does not know. */
  blockTime?: Integer | null
  meta: {
    err: unknown
    logMessages?: readonly string[] | null
    innerInstructions?: ReadonlyArray<{index: number; instructions: readonly ParsedInstruction[]}> | null
    [extra: string]: unknown
  } | null
  transaction: {
    signatures: readonly string[]
    message: {instructions: readonly ParsedInstruction[]; [extra: string]: unknown}
  }
  [extra: string]: unknown
}

/** A native SOL transfer found in a transaction. */
export interface NativeTransfer {
  source: string
  destination: string
  lamports: bigint
}

/** Top-level instructions then inner ones (a transfer made by another program through CPI is still a transfer). */
function allInstructions(tx: ParsedTransaction): ParsedInstruction[] {
  const inner = (tx.meta?.innerInstructions ?? []).flatMap((group) => group.instructions ?? [])
  return [...(tx.transaction?.message?.instructions ?? []), ...inner]
}

function toBigInt(value: unknown): bigint | null {
  try {
    if (typeof value === 'bigint') return value
    if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value)
    if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value)
  } catch {
    // not an integer
  }
  return null
}

/** System-program `transfer` and `transferWithSeed` instructions (the two that move SOL between accounts by name). */
export function nativeTransfers(tx: ParsedTransaction): NativeTransfer[] {
  const transfers: NativeTransfer[] = []
  for (const instruction of allInstructions(tx)) {
    if (instruction.programId !== SYSTEM_PROGRAM_ID && instruction.program !== 'system') continue
    const parsed = instruction.parsed as {type?: unknown; info?: Record<string, unknown>} | undefined
    if (!parsed || typeof parsed !== 'object' || (parsed.type !== 'transfer' && parsed.type !== 'transferWithSeed')) continue
    const info = parsed.info ?? {}
    const lamports = toBigInt(info.lamports)
    if (typeof info.source !== 'string' || typeof info.destination !== 'string' || lamports === null) continue
    transfers.push({source: info.source, destination: info.destination, lamports})
  }
  return transfers
}

/** Sum of native transfers to `wallet`. */
export function lamportsTo(tx: ParsedTransaction, wallet: string): bigint {
  return nativeTransfers(tx)
    .filter((transfer) => transfer.destination === wallet)
    .reduce((sum, transfer) => sum + transfer.lamports, 0n)
}

/**
 * The memo texts of a transaction: parsed spl-memo instructions (top level and
 * inner), and the memo program's log lines for memos the node did not parse.
 */
export function memosOf(tx: ParsedTransaction): string[] {
  const memos: string[] = []
  for (const instruction of allInstructions(tx)) {
    const isMemo = instruction.program === 'spl-memo' || (instruction.programId !== undefined && MEMO_PROGRAM_IDS.includes(instruction.programId))
    if (isMemo && typeof instruction.parsed === 'string') memos.push(instruction.parsed)
  }
  for (const line of tx.meta?.logMessages ?? []) {
    const match = MEMO_LOG_LINE.exec(line)
    if (match) memos.push(match[1])
  }
  return [...new Set(memos)]
}

/** The block time in milliseconds, or null. */
export function blockTimeMs(tx: ParsedTransaction): number | null {
  const seconds = toBigInt(tx.blockTime)
  return seconds === null ? null : Number(seconds) * 1000
}
