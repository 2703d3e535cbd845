import {PROTOCOL_ID, WORKFLOW_ID, WORKFLOW_SECTIONS} from '../../constants.js'
import {checkSections, filesOf, recordOf, stemOf, type RuleContext} from '../rule-context.js'

const RUN_LOG_NAME = /^([WP]\d+)-(\d{4}-\d{2}-\d{2})-(.+)$/

/** Workflows (W<N>) and protocols (P<N>): id by folder, file prefix, duplicates, sections; run-log names. */
export function checkRunbooks(context: RuleContext): void {
  const {findings} = context
  const known = new Set<string>()
  for (const kind of ['workflow', 'protocol'] as const) {
    const shape = kind === 'workflow' ? WORKFLOW_ID : PROTOCOL_ID
    const letter = kind === 'workflow' ? 'W' : 'P'
    const seen = new Map<string, string>()
    for (const file of filesOf(context, kind)) {
      const data = recordOf(file)
      if (!data || typeof data.id !== 'string') continue
      const id = data.id
      known.add(id)
      if (!shape.test(id)) {
        findings.add(file, 'workflow-id', `a ${kind} id is ${letter}<N> (${kind}s live in .mesh/${kind}s/), found "${id}"`, {pointer: '/id'})
      } else if (!stemOf(file.path).startsWith(`${id}-`)) {
        findings.add(file, 'workflow-id', `file name ${stemOf(file.path)}.md does not start with the id ${id}-`, {pointer: '/id'})
      }
      const first = seen.get(id)
      if (first) findings.add(file, 'workflow-duplicate-id', `${kind} id ${id} is already used by ${first}`, {pointer: '/id'})
      else seen.set(id, file.path)
      checkSections(context, file, 'workflow-sections', WORKFLOW_SECTIONS)
    }
  }
  for (const file of filesOf(context, 'run-log')) {
    const data = recordOf(file)
    if (!data) continue
    const problems: string[] = []
    const name = RUN_LOG_NAME.exec(stemOf(file.path))
    if (!name) problems.push('the file name is not <id>-<YYYY-MM-DD>-<context>.md')
    else {
      if (typeof data.workflow === 'string' && name[1] !== data.workflow) problems.push(`the file name names ${name[1]} but workflow is ${data.workflow}`)
      if (typeof data.date === 'string' && name[2] !== data.date) problems.push(`the file name's date ${name[2]} differs from date ${data.date}`)
    }
    if (typeof data.date === 'string' && file.month && !data.date.startsWith(file.month)) problems.push(`date ${data.date} is not in the folder's month ${file.month}`)
    if (typeof data.workflow === 'string' && !known.has(data.workflow)) problems.push(`no runbook has id ${data.workflow}`)
    for (const problem of problems) findings.add(file, 'run-log-name', problem, {pointer: '/workflow'})
  }
}
