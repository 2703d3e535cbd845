/**
 * Which event a changed path of `.mesh/` is, by path alone
 * (spec: Folder layout; docs/daemon-api.md, Events from files).
 */

export type WatchedFile =
  | {kind: 'workflow'; id: string}
  | {kind: 'workflow-run'; id: string}
  | {kind: 'protocol'; id: string}
  | {kind: 'protocol-run'; id: string}
  | {kind: 'links'}
  | {kind: 'cluster'}
  | {kind: 'task'; module: string; nameId: string}
  | {kind: 'timeline'}
  | {kind: 'other'}

const RUNBOOK = /^([WP]\d+)(?:-.*)?\.md$/
const RUN_LOG = /^([WP]\d+)-.*\.md$/
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/
const TIMELINE_FILE = /^\d{4}-\d{2}-\d{2}\.jsonl$/
/** A task file is `<ID>-<slug>.md`; the id before the first dash stands in when the frontmatter cannot be read. */
const TASK_FILE = /^([^-]+)(?:-.*)?\.md$/

/** Classifies a `/`-separated path relative to `.mesh/`. */
export function classifyPath(relativePath: string): WatchedFile {
  const parts = relativePath.split('/')
  const name = parts[parts.length - 1]
  const [top] = parts
  if (relativePath === 'public/links.yaml') return {kind: 'links'}
  if (relativePath === 'public/cluster.yaml') return {kind: 'cluster'}
  if (top === 'workflows' || top === 'protocols') {
    const prefix = top === 'workflows' ? 'W' : 'P'
    if (parts.length === 2) {
      const match = RUNBOOK.exec(name)
      if (match && match[1].startsWith(prefix)) return {kind: top === 'workflows' ? 'workflow' : 'protocol', id: match[1]}
    }
    if (parts.length === 4 && parts[1] === 'log' && MONTH.test(parts[2])) {
      const match = RUN_LOG.exec(name)
      if (match && match[1].startsWith(prefix)) return {kind: top === 'workflows' ? 'workflow-run' : 'protocol-run', id: match[1]}
    }
    return {kind: 'other'}
  }
  if (top === 'modules' && parts.length === 4 && parts[2] === 'tasks') {
    const match = TASK_FILE.exec(name)
    if (match) return {kind: 'task', module: parts[1], nameId: match[1]}
  }
  if (top === 'timeline' && parts.length === 2 && TIMELINE_FILE.test(name)) return {kind: 'timeline'}
  return {kind: 'other'}
}
