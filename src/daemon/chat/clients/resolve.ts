/**
 * From a member's card to the process a turn runs: the client's template
 * (the defaults, or this machine's `.mesh/agents/clients.yaml`), its model
 * and effort, and the placeholders filled in. docs/daemon.md, Clients.
 */
import {readFile} from 'node:fs/promises'
import {fileURLToPath} from 'node:url'
import {parse} from 'yaml'
import type {DaemonContext} from '../../context.js'
import {DEFAULT_CLIENTS, EFFORTS, type ClientTemplate, type Effort} from './templates.js'

export const CLIENTS_FILE = 'agents/clients.yaml'

/**
 * The script client always runs from the built package (dist/), also when the
 * daemon itself runs from source in tests: a child process needs JavaScript.
 */
export const SCRIPT_CLIENT_PATH = fileURLToPath(new URL('../../../../dist/daemon/chat/script/main.js', import.meta.url))

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')

/** This machine's templates over the defaults; an unusable entry is skipped and said in the debug stream. */
export async function loadClients(context: Pick<DaemonContext, 'meshPath' | 'debug'>): Promise<Record<string, ClientTemplate>> {
  const clients: Record<string, ClientTemplate> = {...DEFAULT_CLIENTS}
  let text: string
  try {
    text = await readFile(context.meshPath(...CLIENTS_FILE.split('/')), 'utf8')
  } catch {
    return clients
  }
  let data: unknown
  try {
    data = parse(text)
  } catch (error) {
    context.debug.log({lvl: 'warn', tag: 'chat.clients', msg: `.mesh/${CLIENTS_FILE} is not valid YAML (${(error as Error).message.split('\n')[0]}); the default clients apply`})
    return clients
  }
  const entries = (data as {clients?: unknown} | null)?.clients
  if (!entries || typeof entries !== 'object') return clients
  for (const [name, raw] of Object.entries(entries as Record<string, unknown>)) {
    const entry = (raw ?? {}) as Record<string, unknown>
    const base = clients[name]
    const command = entry.command ?? base?.command
    if (!strings(command) || (entry.resume !== undefined && entry.resume !== null && !strings(entry.resume))) {
      context.debug.log({lvl: 'warn', tag: 'chat.clients', msg: `.mesh/${CLIENTS_FILE}: client ${name} needs \`command\` (and \`resume\`, if given) as a list of strings; skipped`})
      continue
    }
    clients[name] = {
      command,
      resume: entry.resume === null ? undefined : ((entry.resume as string[] | undefined) ?? (entry.command ? undefined : base?.resume)),
      system: entry.system === 'argument' || entry.system === 'prompt' ? entry.system : (base?.system ?? 'prompt'),
      stdin: typeof entry.stdin === 'boolean' ? entry.stdin : (base?.stdin ?? true),
      defaultModel: typeof entry.model === 'string' ? entry.model : (base?.defaultModel ?? ''),
      effort: (entry.effort as ClientTemplate['effort']) ?? base?.effort,
    }
  }
  return clients
}

export interface ClientCall {
  /** The program and its arguments. */
  argv: string[]
  /** What is written to stdin, or null (stdin closed at once). */
  stdin: string | null
  /** Whether this call resumes the client's own session (later turns of clients with `resume`). */
  resumed: boolean
}

export interface CallVars {
  model: string
  session: string
  /** The system prompt (member body, context slice, catalog), or null on a resumed turn. */
  system: string | null
  /** This turn's text. */
  prompt: string
  effort?: string
  /** The script file of the `script` client. */
  script: string
  firstTurn: boolean
}

/** Fills a template in; `{effort}` standing alone expands to zero or more arguments. */
export function buildCall(template: ClientTemplate, vars: CallVars): ClientCall {
  const resumed = !vars.firstTurn && template.resume !== undefined
  const system = resumed ? null : vars.system
  // A client that takes no system argument gets the system prompt ahead of the text.
  const prompt = system !== null && template.system === 'prompt' ? `${system}\n\n---\n\n${vars.prompt}` : vars.prompt
  const effort = EFFORTS.includes(vars.effort as Effort) ? (template.effort?.[vars.effort as Effort] ?? []) : []
  const values: Record<string, string> = {
    model: vars.model,
    session: vars.session,
    system: system ?? '',
    prompt,
    node: process.execPath,
    script_client: SCRIPT_CLIENT_PATH,
    script: vars.script,
  }
  const argv: string[] = []
  for (const part of resumed ? template.resume! : template.command) {
    if (part === '{effort}') argv.push(...effort)
    else argv.push(part.replace(/\{([a-z_]+)\}/g, (whole, name: string) => values[name] ?? whole))
  }
  return {argv, stdin: template.stdin ? prompt : null, resumed}
}
