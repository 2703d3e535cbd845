import {describe, expect, it} from 'vitest'
import {taskFile} from '../fixtures.js'
import {brief, findingsFor, ofRule} from './helpers.js'

const TASKS = '.mesh/modules/api/tasks'

describe('task rules', () => {
  it('task-location: tasks nested below tasks/ or in a log/ folder that is not a month', async () => {
    const findings = await findingsFor({'.mesh/modules/api/tasks/done/API5-xx.md': taskFile({id: 'API5'}), '.mesh/modules/api/log/old/API6-yy.md': taskFile({id: 'API6'})})
    expect(brief(ofRule(findings, 'task-location'))).toEqual(['task-location@.mesh/modules/api/log/old/API6-yy.md:1', 'task-location@.mesh/modules/api/tasks/done/API5-xx.md:1'])
  })

  it('task-location: archived tasks under log/<YYYY-MM>/ are valid', async () => {
    expect(await findingsFor({'.mesh/modules/api/log/2026-01/API7-archived.md': taskFile({id: 'API7', status: 'done'})})).toEqual([])
  })

  it('task-filename: prefix must equal the id (error); a missing or odd slug warns', async () => {
    const findings = await findingsFor({
      [`${TASKS}/API9-wrong.md`]: taskFile({id: 'API8'}),
      [`${TASKS}/API10.md`]: taskFile({id: 'API10'}),
      [`${TASKS}/API11-Bad_Slug.md`]: taskFile({id: 'API11'}),
    })
    expect(ofRule(findings, 'task-filename').map((finding) => `${finding.file}:${finding.severity}`)).toEqual([
      `${TASKS}/API10.md:warning`,
      `${TASKS}/API11-Bad_Slug.md:warning`,
      `${TASKS}/API9-wrong.md:error`,
    ])
  })

  it('task-id-strict: a loose id is accepted with a warning', async () => {
    const findings = await findingsFor({[`${TASKS}/fix-login-xx.md`]: taskFile({id: 'fix-login'})})
    expect(ofRule(findings, 'task-id-strict')).toMatchObject([{severity: 'warning', line: 2, column: 5}])
    expect(ofRule(findings, 'schema')).toEqual([])
  })

  it('task-status-alias: the six extra words warn, canonical ones do not', async () => {
    const findings = await findingsFor({[`${TASKS}/API2-xx.md`]: taskFile({id: 'API2', status: 'in-progress'}), [`${TASKS}/API3-yy.md`]: taskFile({id: 'API3', status: 'blocked'})})
    expect(brief(findings)).toEqual([`task-status-alias@${TASKS}/API2-xx.md:4`])
  })

  it('task-duplicate-id: two files (active or archived) with one id', async () => {
    const findings = await findingsFor({'.mesh/modules/api/log/2026-01/API1-again.md': taskFile({id: 'API1'})})
    expect(ofRule(findings, 'task-duplicate-id')).toHaveLength(1)
    expect(ofRule(findings, 'task-duplicate-id')[0].message).toMatch(/already used by/)
  })

  it('task-category: category must be a cluster.yaml module', async () => {
    const findings = await findingsFor({[`${TASKS}/API2-xx.md`]: taskFile({id: 'API2', category: 'billing'})})
    expect(brief(findings)).toEqual([`task-category@${TASKS}/API2-xx.md:7`])
  })

  it('task-module-folder: category must equal the module folder', async () => {
    const findings = await findingsFor({[`${TASKS}/API2-xx.md`]: taskFile({id: 'API2', category: 'general'})})
    expect(brief(findings)).toEqual([`task-module-folder@${TASKS}/API2-xx.md:7`])
  })

  it('task-depends: ids must exist, active or archived', async () => {
    const ok = await findingsFor({[`${TASKS}/API2-xx.md`]: taskFile({id: 'API2', depends_on: ['API0', 'API1']})})
    expect(ok).toEqual([])
    const findings = await findingsFor({[`${TASKS}/API2-xx.md`]: taskFile({id: 'API2', depends_on: ['API1', 'API99']})})
    expect(ofRule(findings, 'task-depends')).toMatchObject([{line: 12, column: 5, message: expect.stringContaining('API99')}])
  })

  it('task-cycle: reports the cycle path once', async () => {
    const findings = await findingsFor({
      [`${TASKS}/API2-aa.md`]: taskFile({id: 'API2', depends_on: ['API3']}),
      [`${TASKS}/API3-bb.md`]: taskFile({id: 'API3', depends_on: ['API4']}),
      [`${TASKS}/API4-cc.md`]: taskFile({id: 'API4', depends_on: ['API2']}),
      [`${TASKS}/API5-dd.md`]: taskFile({id: 'API5', depends_on: ['API5']}),
    })
    const cycles = ofRule(findings, 'task-cycle').map((finding) => finding.message).sort()
    expect(cycles).toEqual(['dependency cycle: API2 → API3 → API4 → API2', 'dependency cycle: API5 → API5'])
  })

  it('task-cycle: a 5,000-long chain is not a cycle and does not overflow the stack', async () => {
    const extra: Record<string, string> = {}
    for (let index = 2; index < 5000; index++) extra[`${TASKS}/API${index}-tt.md`] = taskFile({id: `API${index}`, depends_on: [`API${index - 1}`]})
    expect(await findingsFor(extra)).toEqual([])
  })

  it('task-initiative: initiative and parent_initiative must exist', async () => {
    const ok = await findingsFor({[`${TASKS}/API2-xx.md`]: taskFile({id: 'API2', initiative: 'launch'})})
    expect(ok).toEqual([])
    const findings = await findingsFor({[`${TASKS}/API2-xx.md`]: taskFile({id: 'API2', initiative: 'nope', parent_initiative: 'gone'})})
    expect(ofRule(findings, 'task-initiative')).toHaveLength(2)
  })

  it('task-sections: active tasks need Scope, Done when, Files; archived ones do not', async () => {
    const findings = await findingsFor({
      [`${TASKS}/API2-xx.md`]: taskFile({id: 'API2'}, '\n## Scope\n\nx\n'),
      '.mesh/modules/api/log/2026-01/API3-yy.md': taskFile({id: 'API3'}, '\nDone.\n'),
    })
    expect(ofRule(findings, 'task-sections')).toMatchObject([{file: `${TASKS}/API2-xx.md`, line: 11, message: 'missing sections ## Done when, ## Files'}])
    expect(findings).toHaveLength(1)
  })
})
