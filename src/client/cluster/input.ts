import type {ClientFrame} from './frames.js'

/**
 * What a line typed in the room view, or read from stdin in pipe mode, asks
 * for. Kept apart from the view and the command so both share one grammar
 * (docs/cluster-cli.md, "Input").
 */
export type InputAction =
  /** `text`: the exact JSON of a pipe line that is already a client frame, sent as written. */
  | {kind: 'send'; frame: ClientFrame; text?: string}
  | {kind: 'quit'}
  | {kind: 'help'}
  | {kind: 'empty'}
  | {kind: 'invalid'; message: string}

const MSG = /^\/msg\s+(\S+)\s+([\s\S]+)$/

/** `/msg <handle> <text>`, `/quit`, `/help`; `//text` sends a text starting with one slash. */
function parseSlash(line: string): InputAction | undefined {
  if (!line.startsWith('/')) return undefined
  if (line.startsWith('//')) return {kind: 'send', frame: {payload: line.slice(1)}}
  const word = line.split(/\s/, 1)[0]
  if (word === '/quit' || word === '/exit') return {kind: 'quit'}
  if (word === '/help') return {kind: 'help'}
  if (word === '/msg') {
    const match = MSG.exec(line.trim())
    return match ? {kind: 'send', frame: {to: match[1], payload: match[2]}} : {kind: 'invalid', message: 'usage: /msg <handle> <text>'}
  }
  return {kind: 'invalid', message: `unknown command ${word} (try /help)`}
}

/** A line typed in the room view: a slash command or plain text to broadcast. */
export function parseRoomLine(line: string): InputAction {
  if (line.trim() === '') return {kind: 'empty'}
  return parseSlash(line) ?? {kind: 'send', frame: {payload: line}}
}

/**
 * A line read from stdin in pipe mode: a JSON object `{"payload": …}` or
 * `{"to": "<handle>", "payload": …}`, `/msg <handle> <text>`, or plain text
 * to broadcast. A line that starts with `{` but is not such an object is
 * refused rather than sent as text, since it is almost surely a typo.
 */
export function parsePipeLine(line: string): InputAction {
  const trimmed = line.trim()
  if (trimmed === '') return {kind: 'empty'}
  if (trimmed.startsWith('{')) {
    let value: unknown
    try {
      value = JSON.parse(trimmed)
    } catch {
      return {kind: 'invalid', message: 'line starts with "{" but is not valid JSON'}
    }
    const object = value as Record<string, unknown>
    if (!('payload' in object)) return {kind: 'invalid', message: 'JSON line needs a "payload" (and optionally "to")'}
    if (object.to !== undefined && object.to !== null && typeof object.to !== 'string') return {kind: 'invalid', message: '"to" must be a handle (string)'}
    return {kind: 'send', frame: typeof object.to === 'string' ? {to: object.to, payload: object.payload} : {payload: object.payload}, text: trimmed}
  }
  // In a pipe only /msg and /quit are commands; any other line (even "/etc is…") is text.
  const word = trimmed.split(/\s/, 1)[0]
  if (word === '/msg' || word === '/quit') return parseSlash(trimmed)!
  return {kind: 'send', frame: {payload: line.replace(/\r$/, '')}}
}
