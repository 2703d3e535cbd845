/**
 * The `mesh queue` commands' arguments, their checks and how an item shows on
 * a terminal (docs/cli.md, mesh queue). A malformed conv or item id is a
 * `usage_*` error (exit 2) before the daemon is called, so no other text
 * reaches a route's path; the text limits are the daemon's to judge.
 */
import {readFile} from 'node:fs/promises'
import {Args, Flags} from '@oclif/core'
import {printable} from '../client/printable.js'
import {CONV_PATTERN} from '../daemon/chat/constants.js'
import type {QueueItem} from '../protocol/queue.js'
import {invalid} from '../lib/errors.js'

/** Item ids the daemon makes are `q-<12 hex>`; a hand-edited file may hold others of this shape. */
const ITEM_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/

export const convArg = Args.string({description: 'conversation id (c-…, m-<member>, ask-…)', required: true, ignoreStdin: true})
export const itemIdArg = Args.string({description: 'queue item id (q-…, from mesh queue list)', required: true, ignoreStdin: true})
export const textFileFlag = Flags.string({description: 'read the text from this file (- reads stdin) instead of the argument'})
/** oclif reads stdin into a missing argument unless told not to: the text comes from stdin only when asked (`-`). */
export const textArg = (description: string) => Args.string({description: `${description} (- reads stdin; or --file)`, ignoreStdin: true})

/** A 0-based place in a queue, or `usage_bad_position`. */
export function checkPosition(raw: string): number {
  if (/^\d{1,6}$/.test(raw)) return Number(raw)
  throw invalid('usage_bad_position', `A position is a whole number from 0 (0: sent next); got ${JSON.stringify(raw.slice(0, 20))}`, {field: 'position'})
}

export function checkConv(raw: string): string {
  if (CONV_PATTERN.test(raw)) return raw
  throw invalid('usage_bad_conv', `A conv id is a-z or 0-9, then up to 79 of a-z, 0-9, ., _ and - (e.g. c-3f9a0b1c2d3e); got ${JSON.stringify(raw.slice(0, 90))}`, {field: 'conv'})
}

export function checkItemId(raw: string): string {
  if (ITEM_ID_PATTERN.test(raw)) return raw
  throw invalid('usage_bad_item_id', `A queue item id looks like q-3f9a0b1c2d3e; got ${JSON.stringify(raw.slice(0, 70))}`, {field: 'id'})
}

/** `/chat/conv/<conv>/queue` plus `rest`; conv and id must have passed their checks. */
export const queueRoute = (conv: string, rest = '') => `/chat/conv/${conv}/queue${rest}`

/** The item text: the argument, or `--file`, exactly one of them; `-` for either reads stdin. */
export async function itemText(arg: string | undefined, file: string | undefined): Promise<string> {
  if (arg !== undefined && file !== undefined) throw invalid('usage_text_twice', 'Give the text as an argument or with --file, not both', {field: 'text'})
  if (arg !== undefined && arg !== '-') return arg
  if (arg === undefined && file === undefined) throw invalid('usage_missing_text', 'Give the text as an argument, or with --file <path> (- reads stdin)', {field: 'text'})
  file ??= '-'
  try {
    if (file !== '-') return await readFile(file, 'utf8')
    const chunks: Buffer[] = []
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  } catch (error) {
    throw invalid('usage_text_file', `Cannot read --file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {field: 'file'})
  }
}

/** The first line of a text, cut to `max` characters, safe to print. */
export function excerpt(text: string, max = 60): string {
  const first = text.trim().split('\n')[0]
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first
  return printable(cut) + (text.trim().includes('\n') ? ' …' : '')
}

/** `<position>  <id>  <status>  <first line>` (and the reason of a failed item). */
export function itemLine(item: QueueItem): string {
  const reason = item.failed_reason ? `  (${printable(item.failed_reason)})` : ''
  return `${String(item.position).padStart(2)}  ${printable(item.id)}  ${item.status.padEnd(7)}  ${excerpt(item.text)}${reason}`
}
