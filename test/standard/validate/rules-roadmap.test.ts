import {describe, expect, it} from 'vitest'
import {frontmatter, INITIATIVE_BODY, taskFile, TODAY, WORKFLOW_BODY} from '../fixtures.js'
import {brief, findingsFor, ofRule} from './helpers.js'

const initiative = (overrides: Record<string, unknown> = {}, body = INITIATIVE_BODY) =>
  frontmatter({id: 'beta', title: 'Beta', status: 'draft', owner: 'architect', created: TODAY, updated: TODAY, ...overrides}, body)
const workflow = (overrides: Record<string, unknown> = {}, body = WORKFLOW_BODY) =>
  frontmatter({id: 'W2', title: 'Deploy', scope: 'project', status: 'draft', priority: 'low', owner: 'architect', created: TODAY, updated: TODAY, ...overrides}, body)
const runLog = (overrides: Record<string, unknown> = {}) => frontmatter({workflow: 'W1', date: '2026-01-05', operator: 'op', agent: 'dev', outcome: 'success', ...overrides}, '\nRan.\n')

describe('initiative rules', () => {
  it('id-stem: the id equals the file name', async () => {
    expect(brief(await findingsFor({'.mesh/roadmap/initiatives/gamma.md': initiative()}))).toEqual(['id-stem@.mesh/roadmap/initiatives/gamma.md:2'])
  })
  it('schema: no other keys (closed shape)', async () => {
    const findings = await findingsFor({'.mesh/roadmap/initiatives/beta.md': initiative({priority: 'high'})})
    expect(ofRule(findings, 'schema')[0].message).toMatch(/^unknown key "priority"/)
  })
  it('initiative-modules: module ids must exist', async () => {
    const findings = await findingsFor({'.mesh/roadmap/initiatives/beta.md': initiative({modules: ['api', 'billing']})})
    expect(brief(findings)).toEqual(['initiative-modules@.mesh/roadmap/initiatives/beta.md:10'])
  })
  it('initiative-parent: must exist and not be itself', async () => {
    expect(await findingsFor({'.mesh/roadmap/initiatives/beta.md': initiative({parent_initiative: 'launch'})})).toEqual([])
    const missing = await findingsFor({'.mesh/roadmap/initiatives/beta.md': initiative({parent_initiative: 'nope'})})
    const self = await findingsFor({'.mesh/roadmap/initiatives/beta.md': initiative({parent_initiative: 'beta'})})
    expect([...ofRule(missing, 'initiative-parent'), ...ofRule(self, 'initiative-parent')]).toHaveLength(2)
  })
  it('initiative-draft-active: an initiative with a task in draft stays active (spec v15)', async () => {
    const draftChild = {'.mesh/modules/api/tasks/API7-later.md': taskFile({id: 'API7', title: 'Later', status: 'draft', initiative: 'beta'})}
    const done = await findingsFor({'.mesh/roadmap/initiatives/beta.md': initiative({status: 'done'}), ...draftChild})
    expect(brief(done)).toEqual(['initiative-draft-active@.mesh/roadmap/initiatives/beta.md:4'])
    expect(ofRule(done, 'initiative-draft-active')[0]).toMatchObject({severity: 'warning', message: expect.stringContaining('#API7')})
    // Marked active: as the spec wants. No draft child: any status.
    expect(await findingsFor({'.mesh/roadmap/initiatives/beta.md': initiative({status: 'active'}), ...draftChild})).toEqual([])
    expect(await findingsFor({'.mesh/roadmap/initiatives/beta.md': initiative({status: 'done'}), '.mesh/modules/api/tasks/API7-later.md': taskFile({id: 'API7', title: 'Later', status: 'done', initiative: 'beta'})})).toEqual([])
    // An archived draft is history: it holds nothing.
    expect(ofRule(await findingsFor({'.mesh/roadmap/initiatives/beta.md': initiative({status: 'done'}), '.mesh/modules/api/log/2026-01/API7-later.md': taskFile({id: 'API7', title: 'Later', status: 'draft', initiative: 'beta'})}), 'initiative-draft-active')).toEqual([])
  })
  it('initiative-sections: the three creation sections', async () => {
    const findings = await findingsFor({'.mesh/roadmap/initiatives/beta.md': initiative({}, '\n## Why this exists\n')})
    expect(ofRule(findings, 'initiative-sections')[0].message).toBe('missing sections ## Done when, ## Task plan')
  })
})

describe('team rules', () => {
  it('id-stem: the id equals the file name', async () => {
    const findings = await findingsFor({'.mesh/team/dev.md': frontmatter({id: 'developer', title: 'Dev'}, '\nPrompt.\n')})
    expect(brief(findings)).toEqual(['id-stem@.mesh/team/dev.md:2'])
  })
  it('team-retired-field: each retired field warns at its key', async () => {
    const findings = await findingsFor({'.mesh/team/dev.md': frontmatter({id: 'dev', title: 'Dev', kind: 'worker', owns: ['api']}, '\nPrompt.\n')})
    expect(ofRule(findings, 'team-retired-field').map((finding) => `${finding.line}:${finding.column}:${finding.severity}`)).toEqual(['4:1:warning', '5:1:warning'])
    expect(ofRule(findings, 'schema')).toEqual([])
  })
  it('schema: a token in the member file is refused (it lives in credentials/)', async () => {
    const findings = await findingsFor({'.mesh/team/dev.md': frontmatter({id: 'dev', title: 'Dev', exposure: 'external', token: 'abc'}, '\n')})
    expect(ofRule(findings, 'schema')[0].message).toMatch(/unknown key "token" \(allowed: id, title, client, model, context, exposure, effort\)/)
  })
})

describe('queue rules', () => {
  it('id-stem: conv equals the file name', async () => {
    const findings = await findingsFor({'.mesh/queues/c1.json': JSON.stringify({conv: 'c2', version: 1, items: []})})
    expect(brief(findings)).toEqual(['id-stem@.mesh/queues/c1.json:1'])
  })
})

describe('runbook rules', () => {
  it('a valid protocol and run logs pass', async () => {
    expect(
      await findingsFor({
        '.mesh/protocols/P1-handoff.md': workflow({id: 'P1'}),
        '.mesh/protocols/log/2026-01/P1-2026-01-05-first.md': runLog({workflow: 'P1'}),
        '.mesh/workflows/log/2026-01/W1-2026-01-05-release.md': runLog(),
      }),
    ).toEqual([])
  })
  it('workflow-id: W in workflows/, P in protocols/, file prefix', async () => {
    const findings = await findingsFor({
      '.mesh/workflows/W2-deploy.md': workflow({id: 'P2'}),
      '.mesh/protocols/P3-sync.md': workflow({id: 'W3'}),
      '.mesh/workflows/W9-other.md': workflow({id: 'W4'}),
    })
    expect(brief(ofRule(findings, 'workflow-id'))).toEqual(['workflow-id@.mesh/protocols/P3-sync.md:2', 'workflow-id@.mesh/workflows/W2-deploy.md:2', 'workflow-id@.mesh/workflows/W9-other.md:2'])
  })
  it('workflow-duplicate-id', async () => {
    const findings = await findingsFor({'.mesh/workflows/W1-again.md': workflow({id: 'W1'})})
    expect(ofRule(findings, 'workflow-duplicate-id')).toHaveLength(1)
  })
  it('workflow-sections: all eight sections', async () => {
    const findings = await findingsFor({'.mesh/workflows/W2-deploy.md': workflow({}, '\n## Goal\n\n## Steps\n')})
    expect(ofRule(findings, 'workflow-sections')[0].message).toBe('missing sections ## When to apply, ## Inputs, ## Preconditions, ## Verification, ## Rollback, ## Related')
  })
  it('run-log-name: file name, workflow, date, month folder and runbook agree', async () => {
    const findings = await findingsFor({
      '.mesh/workflows/log/2026-01/W1-2026-01-06-release.md': runLog(),
      '.mesh/workflows/log/2026-02/W1-2026-01-05-late.md': runLog(),
      '.mesh/workflows/log/2026-01/W7-2026-01-05-ghost.md': runLog({workflow: 'W7'}),
      '.mesh/workflows/log/2026-01/notes.md': runLog(),
    })
    expect(ofRule(findings, 'run-log-name').map((finding) => `${finding.file.split('/').slice(-2).join('/')}: ${finding.message}`)).toEqual([
      '2026-01/W1-2026-01-06-release.md: the file name\'s date 2026-01-06 differs from date 2026-01-05',
      '2026-01/W7-2026-01-05-ghost.md: no runbook has id W7',
      '2026-01/notes.md: the file name is not <id>-<YYYY-MM-DD>-<context>.md',
      '2026-02/W1-2026-01-05-late.md: date 2026-01-05 is not in the folder\'s month 2026-02',
    ])
  })
})
