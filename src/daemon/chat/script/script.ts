/**
 * The script client's file (docs/daemon.md, The script client): a list of
 * replies, the first whose conditions hold is played. It makes every path of
 * a turn (text, report and delegate markers, become, failures, hangs,
 * garbage, delays) reproducible with no model installed.
 *
 * ```yaml
 * replies:
 *   - when: "fix the login"      # regex, case-insensitive, tested against the turn's text
 *     turn: 1                     # only on this turn of the session (1 = first)
 *     say: |                      # printed line by line; {{text}}, {{member}}, {{conv}}, {{turn}},
 *       → working on #{{initiative}} · #{{task}}   # {{task}}, {{initiative}}, {{request_ids}}, {{access}} are filled in
 *     delay_ms: 20                # pause before each line
 *     exit: 0                     # exit code once printed
 *     hang: false                 # print, then never exit
 *     crash: false                # die by SIGKILL after printing
 *     garbage: false              # print bytes that are not text first
 *     stderr: "a warning"         # written to stderr
 *     echo_prompt: false          # print the prompt received on stdin, after `say`
 *     tools:                      # tool steps, before `say` (structured formats only)
 *       - {tool: Edit, input: {file_path: a.ts}, output: "ok", failed: false}
 *     usage: {input_tokens: 10, output_tokens: 5, cost_usd: 0.01}   # reported at the end
 *     ignore_term: false          # ignore SIGTERM (only SIGKILL ends it)
 *     child: false                # start a child in its group holding stdout open, never exiting
 * default: {say: "…"}             # when no reply matches
 * format: text                    # or claude-stream, codex-json, gemini-stream (issue 19):
 *                                 # the reply printed as that CLI's structured stream
 * ```
 */
import {parse} from 'yaml'
import {isStreamFormat, STREAM_FORMATS, type StreamFormat} from '../clients/streams/types.js'
import type {EmittedTool, EmittedUsage} from './emit.js'

export interface ScriptReply {
  when?: string
  turn?: number
  say?: string
  delay_ms?: number
  exit?: number
  hang?: boolean
  crash?: boolean
  garbage?: boolean
  stderr?: string
  /** Print the prompt received on stdin after `say` (tests read what a turn was told). */
  echo_prompt?: boolean
  /** Tool steps printed before `say`, in a structured format. */
  tools?: EmittedTool[]
  /** What the stream reports it used, in a structured format. */
  usage?: EmittedUsage
  /** Ignore SIGTERM, as a stuck CLI may: only the SIGKILL after the grace ends it (issue 19, See and stop). */
  ignore_term?: boolean
  /** Start a child process in the client's group that holds its output open, as a CLI's tool would, and never exits by itself. */
  child?: boolean
}

export interface Script {
  replies: ScriptReply[]
  default?: ScriptReply
  /** How replies are printed (issue 19): `text` (the default) or a CLI's structured stream. */
  format: StreamFormat
}

/** What the daemon tells a turn's process (the JSON file named by MESH_TURN_FILE). */
export interface TurnFacts {
  conv: string
  member: string
  profile: string
  turn: number
  session: string
  text: string
  request_ids: string[]
  anchor?: {initiative?: string; task?: string}
  /** The access level the turn runs at (issue 19). */
  access?: string
}

const isReply = (value: unknown): value is ScriptReply => !!value && typeof value === 'object' && !Array.isArray(value)

/** Parses a script file's text; throws an Error with a sentence when it is not a script. */
export function parseScript(text: string): Script {
  const data = parse(text) as unknown
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('a script is a YAML mapping with `replies`')
  const {replies, default: fallback, format} = data as {replies?: unknown; default?: unknown; format?: unknown}
  if (!Array.isArray(replies) || !replies.every(isReply)) throw new Error('`replies` must be a list of mappings')
  if (fallback !== undefined && !isReply(fallback)) throw new Error('`default` must be a mapping')
  if (format !== undefined && !isStreamFormat(format)) throw new Error(`\`format\` is one of ${STREAM_FORMATS.join(', ')}`)
  for (const reply of replies) if (reply.when !== undefined) new RegExp(reply.when, 'i')
  return {replies, default: fallback, format: format ?? 'text'}
}

export function pickReply(script: Script, facts: TurnFacts): ScriptReply | null {
  for (const reply of script.replies) {
    if (reply.turn !== undefined && reply.turn !== facts.turn) continue
    if (reply.when !== undefined && !new RegExp(reply.when, 'i').test(facts.text)) continue
    return reply
  }
  return script.default ?? null
}

export function fillIn(text: string, facts: TurnFacts): string {
  const values: Record<string, string> = {
    text: facts.text,
    member: facts.member,
    conv: facts.conv,
    turn: String(facts.turn),
    task: facts.anchor?.task ?? '',
    initiative: facts.anchor?.initiative ?? '',
    request_ids: JSON.stringify(facts.request_ids),
    access: facts.access ?? '',
  }
  return text.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole)
}
