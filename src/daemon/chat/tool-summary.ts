/**
 * How a client's tool step reads in `chat.tool` (issue 19, Structured client
 * streams: "tool name, one-line summary of its input, status, secrets
 * masked, output clipped"): the input in one line — the one field that says
 * what the tool works on (a path, a command, a query) when it has one, else
 * its JSON — with every secret-looking value masked, and the output cut at
 * MAX_TOOL_OUTPUT_CHARS. The timeline is read by whoever reads the project
 * folder; a token an agent happened to type or read must not land there.
 */
import {isAbsolute, relative} from 'node:path'
import {redact} from '../../lib/log.js'
import {MAX_TOOL_OUTPUT_CHARS, MAX_TOOL_SUMMARY_CHARS} from './constants.js'
import {cleanText} from './output-lines.js'

export const MASK = '***'

/** Values that are secrets whatever surrounds them: known token shapes. */
const TOKEN_SHAPES = [
  /\bmtk_[A-Za-z0-9_-]{10,}/g, // mesh member tokens
  /\bsk-[A-Za-z0-9_-]{16,}/g, // OpenAI and Anthropic API keys
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{35}/g, // Google API keys
]
/** A value after a secret-looking name: `API_KEY=…`, `password: …`, `--token …`, `Bearer …`, `user:pass@`. */
const NAMED = [
  /((?:^|[^A-Za-z0-9])[A-Za-z0-9_]*(?:token|secret|passw(?:or)?d|api[_-]?key|access[_-]?key|private[_-]?key|credential)s?[A-Za-z0-9_]*["']?\s*[=:]\s*["']?)([^\s"',;]+)/gi,
  /(--(?:token|password|secret|api-key|apikey|access-key)(?:=|\s+))(\S+)/gi,
  /(\bbearer\s+)([A-Za-z0-9._~+/=-]{8,})/gi,
  /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:)([^/\s@]+)(@)/gi,
]

/** `text` with every secret-looking value replaced by ***. */
export function maskSecrets(text: string): string {
  let masked = text
  for (const shape of TOKEN_SHAPES) masked = masked.replace(shape, MASK)
  for (const named of NAMED) masked = masked.replace(named, (_whole, head: string, _value: string, tail?: string) => `${head}${MASK}${typeof tail === 'string' ? tail : ''}`)
  return masked
}

/** The input fields that say what a tool works on, most telling first. */
const SALIENT = ['command', 'file_path', 'path', 'absolute_path', 'notebook_path', 'pattern', 'url', 'query', 'file', 'description', 'prompt']

const oneLine = (text: string, max: number) => {
  const flat = cleanText(text).replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** A path inside the project as a relative one (`src/app.ts`), others as they are. */
function shownPath(value: string, root: string): string {
  if (!isAbsolute(value)) return value
  const inside = relative(root, value)
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : value
}

/** What a file_change (codex) changed: `update a.ts, add b.ts`. */
function changesOf(changes: unknown, root: string): string | null {
  if (!Array.isArray(changes)) return null
  return changes
    .filter((change): change is {path: unknown; kind: unknown} => !!change && typeof change === 'object')
    .map((change) => `${String(change.kind ?? 'change')} ${shownPath(String(change.path ?? ''), root)}`)
    .join(', ')
}

/** The tool's input in one line, secrets masked, at most MAX_TOOL_SUMMARY_CHARS. */
export function summarizeInput(input: unknown, root: string): string {
  if (input === undefined || input === null) return ''
  if (typeof input === 'string') return oneLine(maskSecrets(input), MAX_TOOL_SUMMARY_CHARS)
  if (typeof input !== 'object' || Array.isArray(input)) return oneLine(maskSecrets(JSON.stringify(input)), MAX_TOOL_SUMMARY_CHARS)
  const record = redact(input) as Record<string, unknown>
  const changes = changesOf(record.changes, root)
  if (changes !== null) return oneLine(maskSecrets(changes), MAX_TOOL_SUMMARY_CHARS)
  for (const key of SALIENT) {
    const value = record[key]
    if (typeof value === 'string' && value !== '') return oneLine(maskSecrets(key.includes('path') || key === 'file' ? shownPath(value, root) : value), MAX_TOOL_SUMMARY_CHARS)
  }
  return oneLine(maskSecrets(JSON.stringify(record)), MAX_TOOL_SUMMARY_CHARS)
}

/** A tool's output for the timeline: cleaned, secrets masked, cut at MAX_TOOL_OUTPUT_CHARS. */
export function clipOutput(output: string): string {
  // Masked before it is cut (a token split by the cut would escape the patterns), but never over more than twice what is kept.
  const clean = maskSecrets(cleanText(output.slice(0, MAX_TOOL_OUTPUT_CHARS * 2)))
  return clean.length > MAX_TOOL_OUTPUT_CHARS || output.length > MAX_TOOL_OUTPUT_CHARS * 2 ? `${clean.slice(0, MAX_TOOL_OUTPUT_CHARS)}… (${output.length} characters in all)` : clean
}

/** The line people read: `Edit src/app.ts`, `shell: npm test`, `Read` (tool names are the client's own). */
export function toolLine(tool: string, summary: string): string {
  return summary === '' ? tool : `${tool} ${summary}`
}
