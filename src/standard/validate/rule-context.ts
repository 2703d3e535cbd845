import type {FileKind, Project, ProjectFile} from '../project/index.js'
import type {FindingCollector} from './collector.js'

/** A cluster.yaml module as the cross-file rules see it. */
export interface ModuleEntry {
  id: string
  kind?: string
  parent?: string
  path?: string
  /** Position in modules[], for pointers. */
  index: number
}

/** What cluster.yaml says, when it could be read. */
export interface ClusterView {
  file: ProjectFile
  modules: ModuleEntry[]
  moduleIds: Set<string>
}

/** Everything a rule gets: the loaded project, files by kind, cluster modules and the collector. */
export interface RuleContext {
  project: Project
  byKind: ReadonlyMap<FileKind, ProjectFile[]>
  cluster?: ClusterView
  findings: FindingCollector
}

/** Files of the given kinds, in walk order. */
export function filesOf(context: RuleContext, ...kinds: FileKind[]): ProjectFile[] {
  if (kinds.length === 1) return context.byKind.get(kinds[0]) ?? []
  return kinds.flatMap((kind) => context.byKind.get(kind) ?? [])
}

/** The parsed data of a file as a plain object, or undefined when it is not one. */
export function recordOf(file: ProjectFile): Record<string, unknown> | undefined {
  const data = file.data
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined
}

/** `name.md` → `name`. */
export const stemOf = (path: string) => {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(0, dot) : name
}

/** The `## ` section titles of a markdown body, lower-cased. */
export function sectionTitles(body: string | undefined): Set<string> {
  const titles = new Set<string>()
  if (!body) return titles
  for (const match of body.matchAll(/^##[ \t]+(.+?)[ \t#]*$/gm)) titles.add(match[1].trim().toLowerCase())
  return titles
}

/**
 * Adds `rule` to `file` when its body lacks any of the `## ` sections in
 * `required` (compared case-insensitively), naming the missing ones.
 */
export function checkSections(context: RuleContext, file: ProjectFile, rule: string, required: readonly string[]): void {
  const titles = sectionTitles(file.body)
  const missing = required.filter((section) => !titles.has(section.toLowerCase()))
  if (missing.length === 0) return
  context.findings.add(file, rule, `missing section${missing.length > 1 ? 's' : ''} ${missing.map((name) => `## ${name}`).join(', ')}`, {line: file.bodyStartLine ?? 1, column: 1})
}

/** The 1-based line of the first line in `body` matching `pattern`, as a file line. */
export function bodyLine(file: ProjectFile, index: number): number {
  const body = file.body ?? ''
  let line = file.bodyStartLine ?? 1
  for (let at = body.indexOf('\n'); at !== -1 && at < index; at = body.indexOf('\n', at + 1)) line++
  return line
}
