/**
 * From a template to the process a turn runs: the placeholders filled in,
 * what goes to stdin, and which private files the process reads (the system
 * prompt, or the prompt for a CLI without stdin). Pure: the turn writes the
 * files. docs/daemon.md, Clients.
 */
import {fileURLToPath} from 'node:url'
import {MCP_SERVER_NAME, mcpServersJson, tomlValue, type StdioServer} from '../../../lib/mcp-config.js'
import {EFFORTS, type AccessLevel, type ClientTemplate, type Effort} from './templates.js'

/**
 * The script client always runs from the built package (dist/), also when the
 * daemon itself runs from source in tests: a child process needs JavaScript.
 */
export const SCRIPT_CLIENT_PATH = fileURLToPath(new URL('../../../../dist/daemon/chat/script/main.js', import.meta.url))
/** This package's `mesh` program, which a turn's MCP server runs as (`mesh mcp`, issue 24). */
export const MESH_BIN_PATH = fileURLToPath(new URL('../../../../bin/run.js', import.meta.url))

export interface ClientCall {
  /** The program and its arguments: no project or asker text in them. */
  argv: string[]
  /** What is written to stdin, or null (stdin closed at once). */
  stdin: string | null
  /** Whether this call resumes the client's own session (later turns of clients with `resume`). */
  resumed: boolean
  /** The private files the arguments name, with their content; the turn writes them before the process starts. */
  files: Array<{path: string; content: string}>
  /** Variables set for the process beside the turn's own (the template's `mcpEnv` when the MCP server is on). */
  env: Record<string, string>
}

export interface CallVars {
  model: string
  session: string
  /** The system prompt (member body, context slice, catalog), or null on a resumed turn. */
  system: string | null
  /** This turn's text. */
  prompt: string
  effort?: string
  /** The turn's access level: `{access}` expands to the template's arguments for it. */
  access: AccessLevel
  /** The script file of the `script` client. */
  script: string
  /** Whether the session is fresh (the system prompt goes with it), else resumed with `resume`. */
  firstTurn: boolean
  /** Where `{system_file}` and `{prompt_file}` would be written (inside the turn's private folder). */
  systemFile: string
  promptFile: string
  /** The MCP server the client is told to start (`{mcp}`), or null: the member's turns do not get one. */
  mcp?: StdioServer | null
  /** Where `{mcp_file}` would be written. */
  mcpFile?: string
}

/** Fills a template in; `{effort}` and `{access}` standing alone expand to zero or more arguments. */
export function buildCall(template: ClientTemplate, vars: CallVars): ClientCall {
  const resumed = !vars.firstTurn && template.resume !== undefined
  const system = resumed ? null : vars.system
  // A client that reads no system prompt file gets the system prompt ahead of the text.
  const prompt = system !== null && template.system === 'prompt' ? `${system}\n\n---\n\n${vars.prompt}` : vars.prompt
  const effort = EFFORTS.includes(vars.effort as Effort) ? (template.effort?.[vars.effort as Effort] ?? []) : []
  const access = template.access?.[vars.access] ?? []
  const mcp = vars.mcp ? (template.mcp ?? []) : []
  const values: Record<string, string> = {
    ...(vars.mcp ? {mcp_file: vars.mcpFile ?? '', mcp_command: tomlValue(vars.mcp.command), mcp_args: tomlValue(vars.mcp.args)} : {}),
    model: vars.model,
    session: vars.session,
    system_file: vars.systemFile,
    prompt_file: vars.promptFile,
    node: process.execPath,
    script_client: SCRIPT_CLIENT_PATH,
    script: vars.script,
  }
  const used = new Set<string>()
  const fill = (part: string) =>
    part.replace(/\{([a-z_]+)\}/g, (whole, name: string) => {
      if (!(name in values)) return whole
      used.add(name)
      return values[name]
    })
  const argv: string[] = []
  for (const part of resumed ? template.resume! : template.command) {
    if (part === '{effort}') argv.push(...effort)
    else if (part === '{access}') argv.push(...access)
    else if (part === '{mcp}') argv.push(...mcp.map(fill))
    else argv.push(fill(part))
  }
  const env = vars.mcp ? Object.fromEntries(Object.entries(template.mcpEnv ?? {}).map(([name, value]) => [name, fill(value)])) : {}
  const files: ClientCall['files'] = []
  if (used.has('system_file')) files.push({path: vars.systemFile, content: template.system === 'file' ? (system ?? '') : ''})
  if (used.has('prompt_file')) files.push({path: vars.promptFile, content: prompt})
  if (used.has('mcp_file') && vars.mcp) files.push({path: vars.mcpFile ?? '', content: mcpServersJson(MCP_SERVER_NAME, vars.mcp)})
  return {argv, stdin: template.stdin ? prompt : null, resumed, files, env}
}
