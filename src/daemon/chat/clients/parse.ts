/**
 * A clients file (`~/.config/mesh/clients.yaml`, or a trusted
 * `.mesh/agents/clients.yaml`) read into templates over the ones below it.
 * Pure: no file access. docs/daemon.md, Clients.
 *
 * Shape: `clients: {<name>: {command, resume?, system?, stdin?, model?,
 * effort?, format?, access?}}` and `access: {<member>: read|edit|full}`
 * (issue 19, Access per member) and `mcp: {<member>: true|false}` (issue 24:
 * the member's turns get `mesh mcp`). Other top-level keys are left alone, so a
 * later key can be added without breaking today's files.
 */
import {parse} from 'yaml'
import {MEMBER_ID_PATTERN} from '../../../protocol/team.js'
import {isStreamFormat, STREAM_FORMATS} from './streams/types.js'
import {ACCESS_LEVELS, REFUSED_PLACEHOLDERS, type AccessLevel, type ClientTemplate} from './templates.js'

export interface ParsedClients {
  /** Every client the file names, usable or not. */
  names: string[]
  /** The usable ones, each over its template from `base` where the file leaves a field out. */
  templates: Record<string, ClientTemplate>
  /** Why each unusable client cannot be used, in a sentence. */
  unusable: Record<string, string>
  /** `access:` — the level of each member it names. */
  access: Record<string, AccessLevel>
  /** Members whose `access:` entry cannot be used, with why: their turns fail rather than run at another level. */
  accessProblems: Record<string, string>
  /** `mcp:` — whether each member it names gets the project's MCP server in its turns (off unless `true`). */
  mcp: Record<string, boolean>
  /** Sentences for `mcp:` entries that cannot be used: they stay off (off grants nothing). */
  mcpProblems: string[]
}

export class ClientsFileError extends Error {
  override name = 'ClientsFileError'
}

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')

const isAccessLevel = (value: unknown): value is AccessLevel => (ACCESS_LEVELS as readonly unknown[]).includes(value)

/** A client's `access` arguments: a mapping of levels to lists of strings. */
const accessArgs = (value: unknown): value is Partial<Record<AccessLevel, string[]>> =>
  !!value && typeof value === 'object' && !Array.isArray(value) && Object.entries(value).every(([level, argv]) => isAccessLevel(level) && Array.isArray(argv) && argv.every((item) => typeof item === 'string'))

const placeholdersIn = (argv: string[]) => argv.flatMap((part) => [...part.matchAll(/\{([a-z_]+)\}/g)].map((match) => match[1]))

/** Why `template` cannot be used, in a sentence, or null. */
function problemOf(name: string, template: ClientTemplate): string | null {
  for (const argv of [template.command, ...(template.resume ? [template.resume] : [])]) {
    for (const used of placeholdersIn(argv)) {
      const instead = REFUSED_PLACEHOLDERS[used]
      if (instead) return `client ${name} puts \`{${used}}\` in its arguments, where every local user can read it (/proc/<pid>/cmdline); use ${instead}`
    }
  }
  if (template.system === 'file' && !placeholdersIn(template.command).includes('system_file')) return `client ${name} has \`system: file\` but its \`command\` has no \`{system_file}\``
  if (!template.stdin) {
    for (const argv of [template.command, ...(template.resume ? [template.resume] : [])]) {
      if (!placeholdersIn(argv).includes('prompt_file')) return `client ${name} has \`stdin: false\` but \`${argv[0]} …\` has no \`{prompt_file}\`: the prompt would reach it nowhere`
    }
  }
  return null
}

/**
 * Parses `text` (what `where` names, for messages). Throws ClientsFileError
 * when it is not YAML or not a mapping; entries that cannot be used are
 * listed in `unusable`, never silently dropped.
 */
export function parseClientsFile(text: string, base: Record<string, ClientTemplate>, where: string): ParsedClients {
  let data: unknown
  try {
    data = parse(text)
  } catch (error) {
    throw new ClientsFileError(`${where} is not valid YAML (${(error as Error).message.split('\n')[0]})`)
  }
  if (data === null || data === undefined) return {names: [], templates: {}, unusable: {}, access: {}, accessProblems: {}, mcp: {}, mcpProblems: []}
  if (typeof data !== 'object' || Array.isArray(data)) throw new ClientsFileError(`${where} must be a mapping with a \`clients:\` key`)
  const parsed: ParsedClients = {names: [], templates: {}, unusable: {}, access: {}, accessProblems: {}, mcp: {}, mcpProblems: []}
  parseAccess((data as {access?: unknown}).access, where, parsed)
  parseMcp((data as {mcp?: unknown}).mcp, where, parsed)
  const entries = (data as {clients?: unknown}).clients
  if (entries === undefined || entries === null) return parsed
  if (typeof entries !== 'object' || Array.isArray(entries)) throw new ClientsFileError(`${where}: \`clients\` must map each client's name to its template`)
  for (const [name, raw] of Object.entries(entries as Record<string, unknown>)) {
    parsed.names.push(name)
    const entry = (raw ?? {}) as Record<string, unknown>
    const below = base[name]
    const command = entry.command ?? below?.command
    if (!strings(command) || (entry.resume !== undefined && entry.resume !== null && !strings(entry.resume))) {
      parsed.unusable[name] = `client ${name} needs \`command\` (and \`resume\`, if given) as a list of strings`
      continue
    }
    if (entry.system !== undefined && entry.system !== 'file' && entry.system !== 'prompt') {
      parsed.unusable[name] = `client ${name}: \`system\` is \`file\` (the private file {system_file}) or \`prompt\` (ahead of the text)${entry.system === 'argument' ? '; `argument` is gone, since an argument is readable by every local user' : ''}`
      continue
    }
    if (entry.format !== undefined && !isStreamFormat(entry.format)) {
      parsed.unusable[name] = `client ${name}: \`format\` is one of ${STREAM_FORMATS.join(', ')}; got ${JSON.stringify(entry.format)}`
      continue
    }
    if (entry.mcp_args !== undefined && entry.mcp_args !== null && !(Array.isArray(entry.mcp_args) && entry.mcp_args.every((item) => typeof item === 'string'))) {
      parsed.unusable[name] = `client ${name}: \`mcp_args\` is a list of arguments (\`{mcp}\` in its command expands to them)`
      continue
    }
    if (entry.access !== undefined && entry.access !== null && !accessArgs(entry.access)) {
      parsed.unusable[name] = `client ${name}: \`access\` maps ${ACCESS_LEVELS.join(', ')} to lists of arguments`
      continue
    }
    const template: ClientTemplate = {
      command,
      resume: entry.resume === null ? undefined : ((entry.resume as string[] | undefined) ?? (entry.command ? undefined : below?.resume)),
      // A command of the file's own takes the system prompt from a file when it names {system_file}, else ahead of the text.
      system: (entry.system as ClientTemplate['system'] | undefined) ?? (entry.command ? (placeholdersIn(command).includes('system_file') ? 'file' : 'prompt') : (below?.system ?? 'prompt')),
      stdin: typeof entry.stdin === 'boolean' ? entry.stdin : (below?.stdin ?? true),
      defaultModel: typeof entry.model === 'string' ? entry.model : (below?.defaultModel ?? ''),
      effort: (entry.effort as ClientTemplate['effort']) ?? below?.effort,
      // A command of the file's own prints text unless the file says which stream it prints.
      format: isStreamFormat(entry.format) ? entry.format : entry.command ? 'text' : (below?.format ?? 'text'),
      access: entry.access === null ? undefined : ((entry.access as ClientTemplate['access']) ?? below?.access),
      mcp: entry.mcp_args === null ? undefined : ((entry.mcp_args as string[] | undefined) ?? (entry.command ? undefined : below?.mcp)),
      mcpEnv: entry.command ? undefined : below?.mcpEnv,
    }
    const problem = problemOf(name, template)
    if (problem) parsed.unusable[name] = problem
    else parsed.templates[name] = template
  }
  return parsed
}

/** `access: {<member>: read|edit|full}` into `parsed`; a member named wrongly or with an unknown level is a problem of its own. */
function parseAccess(value: unknown, where: string, parsed: ParsedClients) {
  if (value === undefined || value === null) return
  if (typeof value !== 'object' || Array.isArray(value)) throw new ClientsFileError(`${where}: \`access\` must map member ids to ${ACCESS_LEVELS.join(', ')} (e.g. \`access: {developer: full}\`)`)
  for (const [member, level] of Object.entries(value as Record<string, unknown>)) {
    if (!MEMBER_ID_PATTERN.test(member)) parsed.accessProblems[member] = `${where}: \`access\` names ${JSON.stringify(member)}, which is not a member id`
    else if (!isAccessLevel(level)) parsed.accessProblems[member] = `${where}: the access of ${member} is one of ${ACCESS_LEVELS.join(', ')}; got ${JSON.stringify(level)}`
    else parsed.access[member] = level
  }
}

/** `mcp: {<member>: true|false}` into `parsed`; anything else is said and left off. */
function parseMcp(value: unknown, where: string, parsed: ParsedClients) {
  if (value === undefined || value === null) return
  if (typeof value !== 'object' || Array.isArray(value)) {
    parsed.mcpProblems.push(`${where}: \`mcp\` maps member ids to true or false (e.g. \`mcp: {developer: true}\`); it is ignored`)
    return
  }
  for (const [member, on] of Object.entries(value as Record<string, unknown>)) {
    if (!MEMBER_ID_PATTERN.test(member)) parsed.mcpProblems.push(`${where}: \`mcp\` names ${JSON.stringify(member)}, which is not a member id; ignored`)
    else if (typeof on !== 'boolean') parsed.mcpProblems.push(`${where}: the mcp entry of ${member} is true or false; got ${JSON.stringify(on)}, so it stays off`)
    else parsed.mcp[member] = on
  }
}
