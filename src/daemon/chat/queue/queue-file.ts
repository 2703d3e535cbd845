/**
 * One conv's queue as a file, `.mesh/queues/<conv>.json` (spec: Queue item
 * (v16)): `{conv, version, items: [{id, text, created_at, position, status,
 * sent_at?, failed_reason?}]}`, plus our additive top-level `member` (the
 * member a conv the chat engine does not know runs with); its shape is
 * src/protocol/queue.ts's. Reading, checking and ordering only;
 * src/daemon/chat/queue/store.ts writes it.
 */
import {readContainedText} from '../../../lib/contained-files.js'
import {conflict, invalid, tooLarge} from '../../../lib/errors.js'
import {describeSchemaError, getValidator} from '../../../lib/schemas.js'
import {patternWords} from '../../../lib/schema-words.js'
import {CONV_PATTERN} from '../constants.js'
import type {QueueFile, QueueItem} from '../../../protocol/queue.js'
import {QUEUE_MAX_TEXT_BYTES} from './constants.js'

/** A conv id of a route, or 400 `invalid_conv` (it names a file: no `..`, no slash, nothing encoded). */
export function convOf(raw: string | undefined): string {
  if (typeof raw === 'string' && CONV_PATTERN.test(raw)) return raw
  throw invalid('invalid_conv', `conv must be ${patternWords(CONV_PATTERN.source)}; got ${JSON.stringify(String(raw).slice(0, 90))}`, {field: 'conv'})
}

/** spec Limits: 1 to 64 KB of UTF-8 per item text; 400 `text_empty` for blank text, 413 `text_too_large` beyond. */
export function checkText(text: string): string {
  if (text.trim() === '') throw invalid('text_empty', 'The item text is empty', {field: 'text'})
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > QUEUE_MAX_TEXT_BYTES) throw tooLarge('text_too_large', `The item text is ${bytes} bytes of UTF-8; the limit is ${QUEUE_MAX_TEXT_BYTES}`, {field: 'text'})
  return text
}

export const emptyQueue = (conv: string): QueueFile => ({conv, version: 0, state: 'active', items: []})

/** Items in queue order with `position` = their index. */
export function renumber(items: QueueItem[]): QueueItem[] {
  return items.map((item, position) => ({...item, position}))
}

const unreadable = (conv: string, why: string) =>
  conflict('queue_unreadable', `.mesh/queues/${conv}.json cannot be used: ${why}; fix or delete the file`)

/** The file's content checked against schemas/queue.schema.json; items in `position` order (a hand edit may shuffle them). */
export function parseQueue(conv: string, text: string): QueueFile {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw unreadable(conv, `not JSON (${(error as Error).message})`)
  }
  const validate = getValidator<QueueFile>('queue')
  if (!validate(value)) throw unreadable(conv, describeSchemaError(validate.errors![0], value))
  if (value.conv !== conv) throw unreadable(conv, `its conv is ${JSON.stringify(value.conv)}`)
  const items = value.items.map((item, index) => ({item, index})).sort((a, b) => a.item.position - b.item.position || a.index - b.index)
  // `state` follows `paused`: a hand edit that removes one removes both.
  const {paused, state: _state, ...rest} = value
  return {...rest, state: paused ? 'paused' : 'active', ...(paused ? {paused} : {}), items: renumber(items.map(({item}) => item))}
}

/** The queue `<relativePath>` under `root` (`.mesh/`), or an empty one when the file does not exist; a link is refused (409 `path_refused`), never read. */
export async function readQueue(root: string, relativePath: string, conv: string): Promise<QueueFile> {
  const text = await readContainedText(root, relativePath)
  return text === null ? emptyQueue(conv) : parseQueue(conv, text)
}
