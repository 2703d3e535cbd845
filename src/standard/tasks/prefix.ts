import {invalid} from '../../lib/errors.js'
import type {ClusterModule} from './cluster-modules.js'
import {patternWords} from '../../lib/schema-words.js'
import {TASK_PREFIX} from './constants.js'

/**
 * Candidate prefixes for a module without `task_prefix`, best first:
 * the initials of its hyphen-separated words (`git-manager` → `GM`), then the
 * leading letters of the id (`deploy` → `D`, `DE`, `DEP`, `DEPL`), then the
 * first letter with every second letter and pair of letters. Letters only, so a
 * prefix never ends in a digit that would blur into the task number.
 */
export function prefixCandidates(moduleId: string): string[] {
  const words = moduleId.split('-').map((word) => word.replace(/[^a-z]/gi, '').toUpperCase()).filter(Boolean)
  const letters = words.join('') || 'M'
  const candidates = [words.map((word) => word[0]).join('').slice(0, 4) || 'M']
  for (let length = 1; length <= Math.min(4, letters.length); length++) candidates.push(letters.slice(0, length))
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
  for (const second of alphabet) candidates.push(letters[0] + second)
  for (const second of alphabet) for (const third of alphabet) candidates.push(letters[0] + second + third)
  return [...new Set(candidates)]
}

/**
 * The task-id prefix of every module, unique across modules. Resolution order:
 * 1. an explicit `task_prefix` in cluster.yaml;
 * 2. the prefix already used by the module's task files (`known`), so adding
 *    a module never renames the ids of another;
 * 3. the first free candidate of {@link prefixCandidates}, in cluster.yaml order.
 */
export function resolvePrefixes(modules: ClusterModule[], known: ReadonlyMap<string, string> = new Map()): Map<string, string> {
  const result = new Map<string, string>()
  const taken = new Set<string>()
  for (const module of modules) {
    if (module.task_prefix === undefined) continue
    if (!TASK_PREFIX.test(module.task_prefix)) {
      throw invalid('task_prefix_invalid', `Module "${module.id}" has task_prefix "${module.task_prefix}"; it must be ${patternWords(TASK_PREFIX.source)}.`, {field: 'task_prefix'})
    }
    if (taken.has(module.task_prefix)) {
      throw invalid('task_prefix_duplicate', `Two modules use task_prefix "${module.task_prefix}"; each module needs its own.`, {field: 'task_prefix'})
    }
    result.set(module.id, module.task_prefix)
    taken.add(module.task_prefix)
  }
  for (const module of modules) {
    const used = known.get(module.id)
    if (result.has(module.id) || used === undefined || taken.has(used)) continue
    result.set(module.id, used)
    taken.add(used)
  }
  for (const module of modules) {
    if (result.has(module.id)) continue
    const prefix = prefixCandidates(module.id).find((candidate) => !taken.has(candidate))!
    result.set(module.id, prefix)
    taken.add(prefix)
  }
  return result
}
