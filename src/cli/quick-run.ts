/**
 * The quick path of bin/run.js (issue 21, a quicker start): a few read-only
 * commands people run all day answered without loading oclif (its import
 * and its config cost 120–200 ms of every command). The flags are read with
 * the definitions oclif.manifest.json holds for the same command, and the
 * work is the command's own view (./views/), so both paths print the same.
 *
 * Conservative by design: anything it does not plainly understand (--help,
 * an unknown or repeated flag, a stray argument, a flag kind it does not
 * know, --json on a terminal, where oclif colours) and any error the view
 * throws make it answer "not mine", having printed nothing, and oclif runs
 * the command as always, with its own messages and exit codes. The views are
 * reads, so running one again under oclif is harmless.
 */
import {readFileSync} from 'node:fs'
import type {CommandOutcome} from './views/outcome.js'

type Flags = Record<string, string | string[] | boolean | undefined>

/** The commands of the quick path, by oclif id. */
const VIEWS: Record<string, (flags: Flags) => Promise<CommandOutcome>> = {
  'task:list': async (flags) => (await import('./views/task-list.js')).taskListView(flags),
  'team:list': async (flags) => (await import('./views/team-list.js')).teamListView(flags as {dir?: string}),
  'daemon:status': async (flags) => (await import('./views/daemon-status.js')).daemonStatusView(flags as {dir?: string}),
}

/** A flag as oclif.manifest.json describes it. */
interface ManifestFlag {
  name: string
  type: 'boolean' | 'option'
  char?: string
  multiple?: boolean
  options?: string[]
  [key: string]: unknown
}

/** The manifest keys the parser below honours; a flag with any other (env, default, dependsOn, aliases…) is left to oclif. */
const UNDERSTOOD = new Set(['name', 'type', 'char', 'multiple', 'options', 'description', 'summary', 'helpGroup', 'allowNo', 'hasDynamicHelp', 'hidden'])

/** The command id of argv when it is one of the quick path's (`['task', 'list', …]` → `task:list`). */
export function quickCommandId(argv: string[]): string | undefined {
  const id = argv.slice(0, 2).join(':')
  return id in VIEWS ? id : undefined
}

/** argv's flags by the manifest's definitions, or undefined for anything oclif should see itself. */
export function parseQuickFlags(argv: string[], definitions: Record<string, ManifestFlag>): Flags | undefined {
  const defs = Object.values(definitions)
  if (defs.some((def) => Object.keys(def).some((key) => !UNDERSTOOD.has(key)) || (def.type === 'boolean' && def.allowNo))) return undefined
  const flags: Flags = {}
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]
    const long = /^--([a-z][a-z0-9-]*)(?:=(.*))?$/s.exec(token)
    const short = /^-([a-zA-Z])(.*)$/s.exec(token)
    const def = long ? definitions[long[1]] : short ? defs.find((candidate) => candidate.char === short[1]) : undefined
    if (!def) return undefined
    const inline = long ? long[2] : short![2] || undefined
    if (def.type === 'boolean') {
      if (inline !== undefined || flags[def.name] !== undefined) return undefined
      flags[def.name] = true
      continue
    }
    const value = inline ?? argv[++i]
    if (value === undefined || (inline === undefined && value.startsWith('-'))) return undefined
    if (def.options && !def.options.includes(value)) return undefined
    if (def.multiple) {
      // oclif takes the words after a repeatable flag's value as more values; those are oclif's to read.
      if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('-')) return undefined
      flags[def.name] = [...((flags[def.name] as string[] | undefined) ?? []), value]
    } else {
      if (flags[def.name] !== undefined) return undefined
      flags[def.name] = value
    }
  }
  for (const def of defs) if (def.type === 'boolean') flags[def.name] ??= false
  return flags
}

/**
 * Runs argv's command on the quick path and resolves true when it answered;
 * false (having printed nothing) when oclif must run it. `manifest` is the
 * package's oclif.manifest.json.
 */
export async function runQuick(argv: string[], manifest: URL): Promise<boolean> {
  const id = quickCommandId(argv)
  if (!id) return false
  let definitions: Record<string, ManifestFlag> | undefined
  try {
    const command = JSON.parse(readFileSync(manifest, 'utf8')).commands?.[id]
    if (command && Object.keys(command.args ?? {}).length === 0 && command.enableJsonFlag) definitions = command.flags
  } catch {
    return false
  }
  const flags = definitions && parseQuickFlags(argv.slice(2), definitions)
  if (!flags || (flags.json && process.stdout.isTTY)) return false
  let outcome: CommandOutcome
  try {
    outcome = await VIEWS[id](flags)
  } catch {
    return false
  }
  // As oclif does: a reader that closed early (`| head`) ends the output, not the process with a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
  })
  if (flags.json) process.stdout.write(`${JSON.stringify(outcome.result, null, 2)}\n`)
  else {
    if (outcome.notes.length > 0) process.stderr.write(outcome.notes.map((note) => `${note}\n`).join(''))
    if (outcome.lines.length > 0) process.stdout.write(outcome.lines.map((line) => `${line}\n`).join(''))
  }
  if (outcome.exitCode !== undefined) process.exitCode = outcome.exitCode
  return true
}
