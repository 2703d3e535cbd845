import type {FileKind, Project, ProjectFile} from '../project/index.js'
import {loadProject, type LoadOptions} from '../project/index.js'
import {readCluster, checkCluster} from './checks/cluster.js'
import {checkContextTree} from './checks/context-tree.js'
import {checkFiles} from './checks/files.js'
import {checkGitignore} from './checks/gitignore.js'
import {checkGovernance} from './checks/governance.js'
import {checkInitiatives, checkQueues, checkTeam} from './checks/roadmap-team.js'
import {checkRunbooks} from './checks/runbooks.js'
import {checkSecrets} from './checks/secrets.js'
import {checkTasks} from './checks/tasks.js'
import {FindingCollector} from './collector.js'
import type {RuleContext} from './rule-context.js'
import type {ValidationReport} from './types.js'

/** The checks, in the order they run; each reads the loaded project and adds findings. */
const CHECKS: ReadonlyArray<(context: RuleContext) => void> = [
  checkFiles,
  checkCluster,
  checkTasks,
  checkInitiatives,
  checkTeam,
  checkQueues,
  checkRunbooks,
  checkContextTree,
  checkGovernance,
  checkGitignore,
  checkSecrets,
]

export type ValidateOptions = LoadOptions

/**
 * Validates a mesh project folder (the repo root holding mesh.json and
 * .mesh/) against the standard: schemas, cross-file rules, governance,
 * context budgets, deny-list and secrets. Never throws for a broken file —
 * that is a finding; throws a usage MeshError only when the folder is missing.
 */
export async function validateProject(root: string, options: ValidateOptions = {}): Promise<ValidationReport> {
  return validateLoaded(await loadProject(root, options))
}

/** Runs every check over an already loaded project. */
export function validateLoaded(project: Project): ValidationReport {
  const byKind = new Map<FileKind, ProjectFile[]>()
  for (const file of project.files) {
    const list = byKind.get(file.kind)
    if (list) list.push(file)
    else byKind.set(file.kind, [file])
  }
  const findings = new FindingCollector()
  const context: RuleContext = {project, byKind, cluster: readCluster(byKind.get('cluster')?.[0]), findings}
  for (const check of CHECKS) check(context)
  const resolved = findings.resolve()
  const count = (severity: string) => resolved.filter((finding) => finding.severity === severity).length
  const summary = {files: project.files.length, skipped: project.skipped.length, errors: count('error'), warnings: count('warning'), infos: count('info')}
  return {root: project.root, findings: resolved, skipped: project.skipped, summary, ok: summary.errors === 0}
}
