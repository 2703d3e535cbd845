/**
 * The project the IDE's bars run against (issue 22, Bars it must clear):
 * 1,000 tasks in the fixture's six modules and the script client's team. A
 * test's own tasks (in `api`) are part of the thousand; the others are
 * generated in the five other modules — all of low priority, so the test's
 * cards lead their columns and stay in view, and with no tag, initiative or
 * word the board tests filter on.
 */
import {writeScriptTeam, type ScriptMember} from '../chat/script-team.js'
import {makeRepo, taskFile, type FixtureRepo} from '../../standard/fixtures.js'

export const BAR_TASKS = 1000

/** The fixture's modules besides `api` (test/standard/fixtures.ts CLUSTER), with the prefix their ids use. */
const MODULES = [
  {id: 'project', prefix: 'PRJ'},
  {id: 'deploy', prefix: 'DEP'},
  {id: 'docs', prefix: 'DOC'},
  {id: 'design', prefix: 'DES'},
  {id: 'general', prefix: 'GEN'},
]
const STATUSES = ['backlog', 'next', 'active', 'blocked', 'done']
/** Generated drafts: the draft lane holds a row of cards, not thousands of pixels of them. */
const DRAFTS = 4

/** The team: script-client members (docs/daemon.md, The script client). */
export const BAR_TEAM: ScriptMember[] = [
  {id: 'architect', title: 'Coordinating architect', replies: [], default: {say: 'Noted.'}},
  {id: 'builder', title: 'Builder', replies: [], default: {say: 'Built.'}},
]

/** `count` task files by repo-relative path: the modules in turn, every fourth depending on its module's previous task. */
export function generatedTasks(count: number): Record<string, string> {
  const files: Record<string, string> = {}
  for (let index = 0; index < count; index++) {
    const module = MODULES[index % MODULES.length]
    const number = Math.floor(index / MODULES.length) + 1
    const id = `${module.prefix}${number}`
    const status = index < DRAFTS ? 'draft' : STATUSES[index % STATUSES.length]
    const dependsOn = number > 1 && index % 4 === 0 ? {depends_on: [`${module.prefix}${number - 1}`]} : {}
    files[`.mesh/modules/${module.id}/tasks/${id}-generated-${number}.md`] = taskFile({
      id,
      title: `Generated task ${index + 1} of the ${module.id} module`,
      status,
      priority: 'low',
      category: module.id,
      tags: [`g${index % 7}`],
      ...dependsOn,
    })
  }
  return files
}

/** A repo with `own` task files (and any other files) plus generated ones up to BAR_TASKS active tasks, and the team. */
export function barProject(own: Record<string, string>): FixtureRepo {
  // The fixture's own API1 is active too; API0 is archived.
  const ownTasks = Object.keys(own).filter((path) => /^\.mesh\/modules\/[^/]+\/tasks\//.test(path)).length + 1
  const repo = makeRepo({...generatedTasks(BAR_TASKS - ownTasks), ...own})
  writeScriptTeam(repo.root, BAR_TEAM)
  return repo
}
