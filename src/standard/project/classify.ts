import {CONTEXT_OPTIONAL_FILES, CONTEXT_REQUIRED_FILES, DENY_LIST, MESH_DIR, MONTH_FOLDER} from '../constants.js'
import type {Classification, FileFormat, FileKind, PathNote} from './types.js'

/**
 * Where each kind of file lives, decided by path alone.
 * spec: project standard, Folder layout (+ DECISIONS deny-list).
 */

/** Folders under `.mesh/` that are never read, with the reason shown by `--verbose`. */
const SKIPPED_DIRS: Readonly<Record<string, string>> = {
  credentials: 'secrets (deny-list): never read',
  agents: 'per-machine agent identities (deny-list)',
  log: 'local prose session log (deny-list); no rules apply',
  uploads: 'local uploads (deny-list)',
  snapshots: 'local file snapshots (deny-list)',
  scripts: 'local helper scripts (deny-list)',
  architect: 'cached visualizer (deny-list)',
  // issue 19: append-only runtime data the daemon writes and nobody commits; a busy day is tens of MB, a
  // month hundreds, and a line torn by a killed daemon is normal. Validating it failed `mesh validate` over
  // files that are never committed and held every day of it in memory; the daemon's readers skip bad lines.
  timeline: "the daemon's event log (deny-list, runtime data): not validated",
  'team/.archive': 'archived roster cards (v37 migration)',
}

/** Generated files: never hand-edited, so nothing to validate. */
const GENERATED_FILES: Readonly<Record<string, string>> = {
  'state.json': 'generated state (deny-list); never hand-edited',
  'roadmap/state.json': 'generated roadmap state (deny-list); never hand-edited',
  'roadmap/state.js': 'generated roadmap state (deny-list); never hand-edited',
}

const OS_JUNK = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini'])

/** Whether a repo-relative path sits under the deny-list (local, never committed). */
export function isDenied(path: string): boolean {
  return DENY_LIST.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry))
}

/** Why a folder (repo-relative, no trailing slash) is not walked, or undefined to walk it. */
export function skipDirectoryReason(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1)
  if (name === '.git' || name === 'node_modules') return 'not part of the standard'
  if (!path.startsWith(`${MESH_DIR}/`)) return undefined
  const inner = path.slice(MESH_DIR.length + 1)
  if (SKIPPED_DIRS[inner]) return SKIPPED_DIRS[inner]
  // spec: .runtime/ holds daemon ephemera; only debug.jsonl at its top has a defined shape.
  if (inner.startsWith('.runtime/')) return 'daemon ephemera (deny-list)'
  return undefined
}

/** Why a file is not read at all, or undefined to read it. */
export function skipFileReason(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1)
  if (OS_JUNK.has(name)) return 'operating-system metadata'
  if (!path.startsWith(`${MESH_DIR}/`)) return undefined
  const inner = path.slice(MESH_DIR.length + 1)
  if (GENERATED_FILES[inner]) return GENERATED_FILES[inner]
  if (inner.startsWith('.runtime/') && inner !== '.runtime/debug.jsonl') return 'daemon ephemera (deny-list)'
  return undefined
}

const unknown = (where: string, severity: PathNote['severity'] = 'info'): Pick<Classification, 'kind' | 'note'> => ({
  kind: 'unknown',
  note: {rule: 'unknown-file', severity, message: `not a file the standard defines ${where}; it is not validated`},
})
const misplaced = (message: string): Pick<Classification, 'kind' | 'note'> => ({
  kind: 'unknown',
  note: {rule: 'task-location', severity: 'error', message},
})

/** Classifies a repo-relative file path (only paths the walker reads reach here). */
export function classifyFile(path: string): Classification {
  const denied = isDenied(path)
  const parts = path.split('/')
  const name = parts[parts.length - 1]
  if (parts.length === 1) {
    if (name === 'mesh.json') return {kind: 'bootstrap', denied}
    if (name === '.gitignore') return {kind: 'gitignore', denied}
    return {...unknown('at the repository root'), denied}
  }
  if (name === '.gitkeep') return {kind: 'placeholder', denied}
  const inner = parts.slice(1) // drop ".mesh"
  const [top] = inner
  const depth = inner.length
  const isMd = name.endsWith('.md')
  const result = (c: Omit<Classification, 'denied'>): Classification => ({...c, denied})

  if (depth === 1) {
    if (name === 'STANDARD_VERSION') return result({kind: 'standard-version'})
    if (name === 'README.md') return result({kind: 'readme'})
    return result(unknown('at the top of .mesh/'))
  }
  switch (top) {
    case 'public':
      if (depth === 2) {
        const known: Record<string, FileKind> = {
          'cluster.yaml': 'cluster',
          'links.yaml': 'links',
          'AGENT_INSTRUCTIONS.md': 'instructions',
          'RESOURCES.md': 'resources',
          'README.md': 'readme',
        }
        if (known[name]) return result({kind: known[name]})
      }
      return result(unknown('in .mesh/public/'))
    case 'docs':
      if (!isMd) return result(unknown('in .mesh/docs/ (docs are markdown)'))
      if (name === 'INDEX.md') return result({kind: 'doc-index'})
      if (name === 'README.md' || name === 'governance.md') return result({kind: 'doc-exempt'})
      return result({kind: 'doc'})
    case 'modules':
      return result(classifyModuleFile(inner, name, isMd))
    case 'roadmap':
      if (depth === 3 && inner[1] === 'initiatives') {
        if (name === 'README.md') return result({kind: 'readme'})
        return result(isMd ? {kind: 'initiative'} : unknown('in roadmap/initiatives/ (initiatives are <id>.md)', 'warning'))
      }
      if (name === 'README.md') return result({kind: 'readme'})
      return result(unknown('in .mesh/roadmap/'))
    case 'context':
      if (name === 'README.md' || name === 'INDEX.md') return result({kind: 'readme'})
      if (depth === 2 && isMd) return result({kind: 'context', ...contextNote(name)})
      if (depth === 3 && isMd && inner[1] === 'decisions') return result({kind: 'decision'})
      if (depth === 3 && isMd && inner[1] === 'criteria') return result({kind: 'criterion'})
      return result(unknown('in .mesh/context/'))
    case 'team':
      if (name === 'README.md') return result({kind: 'readme'})
      if (depth === 2 && isMd) return result({kind: 'team'})
      return result(unknown('in .mesh/team/ (cards are <id>.md)'))
    case 'workflows':
    case 'protocols':
      return result(classifyRunbook(inner, name, isMd, top === 'workflows' ? 'workflow' : 'protocol'))
    case 'timeline':
      if (depth === 2 && /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(name)) return result({kind: 'timeline'})
      return result(unknown('in .mesh/timeline/ (files are <YYYY-MM-DD>.jsonl)'))
    case 'queues':
      if (depth === 2 && name.endsWith('.json')) return result({kind: 'queue'})
      return result(unknown('in .mesh/queues/ (files are <conv>.json)'))
    case '.runtime':
      return result({kind: 'debug-stream'})
    default:
      if (name === 'README.md') return result({kind: 'readme'})
      return result(unknown(`in .mesh/${top}/`))
  }
}

function classifyModuleFile(inner: string[], name: string, isMd: boolean): Omit<Classification, 'denied'> {
  const depth = inner.length
  if (depth === 2) return name === 'README.md' ? {kind: 'readme'} : unknown('directly in .mesh/modules/ (modules are folders)')
  const module = inner[1]
  const area = inner[2]
  if (depth === 3) return name === 'README.md' ? {kind: 'module-readme', module} : {...unknown(`in module folder ${module}/`), module}
  if (name === 'README.md') return {kind: 'readme', module}
  if (area === 'diagrams') return {kind: 'diagram', module}
  if (area === 'tasks') {
    if (depth === 4) return isMd ? {kind: 'task', module} : {...unknown('in tasks/ (tasks are <ID>-<slug>.md)', 'warning'), module}
    return {...misplaced('a file nested below tasks/: active tasks sit directly in modules/<id>/tasks/, archived ones in modules/<id>/log/<YYYY-MM>/'), module}
  }
  if (area === 'log') {
    const month = inner[3]
    if (depth === 5 && MONTH_FOLDER.test(month)) {
      return isMd ? {kind: 'archived-task', module, month} : {...unknown(`in log/${month}/ (archived tasks are <ID>-<slug>.md)`, 'warning'), module}
    }
    return {...misplaced('archived tasks live only in modules/<id>/log/<YYYY-MM>/<ID>-<slug>.md'), module}
  }
  return {...unknown(`in module folder ${module}/`), module}
}

function classifyRunbook(inner: string[], name: string, isMd: boolean, kind: 'workflow' | 'protocol'): Omit<Classification, 'denied'> {
  const folder = `.mesh/${inner[0]}/`
  if (name === 'README.md') return {kind: 'readme'}
  if (inner.length === 2) return isMd ? {kind} : unknown(`in ${folder} (runbooks are markdown)`)
  if (inner[1] === 'log' && inner.length === 4 && MONTH_FOLDER.test(inner[2]) && isMd) return {kind: 'run-log', month: inner[2]}
  if (inner[1] === 'log') return unknown(`in ${folder}log/ (run logs are log/<YYYY-MM>/<id>-<YYYY-MM-DD>-<context>.md)`, 'warning')
  return unknown(`in ${folder}`)
}

function contextNote(name: string): Pick<Classification, 'note'> {
  const known: readonly string[] = [...CONTEXT_REQUIRED_FILES, ...CONTEXT_OPTIONAL_FILES]
  if (known.includes(name)) return {}
  return {note: {rule: 'unknown-file', severity: 'info', message: 'not one of the context files v14 defines; it still counts toward the context budget'}}
}

/** How a kind is stored, which decides how the loader parses it. */
export const FORMAT_OF_KIND: Readonly<Record<FileKind, FileFormat>> = {
  bootstrap: 'json',
  gitignore: 'text',
  'standard-version': 'text',
  cluster: 'yaml',
  links: 'yaml',
  instructions: 'markdown',
  resources: 'markdown',
  doc: 'frontmatter',
  'doc-index': 'markdown',
  'doc-exempt': 'markdown',
  'module-readme': 'markdown',
  task: 'frontmatter',
  'archived-task': 'frontmatter',
  diagram: 'opaque',
  initiative: 'frontmatter',
  context: 'frontmatter',
  decision: 'frontmatter',
  criterion: 'frontmatter',
  team: 'frontmatter',
  workflow: 'frontmatter',
  protocol: 'frontmatter',
  'run-log': 'frontmatter',
  timeline: 'jsonl',
  'debug-stream': 'jsonl',
  queue: 'json',
  readme: 'markdown',
  placeholder: 'opaque',
  unknown: 'opaque',
}
