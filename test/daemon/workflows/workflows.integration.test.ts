import {mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {getValidator} from '../../../src/lib/schemas.js'
import {WORKFLOW_BODY, frontmatter, makeRepo, TODAY} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'

let harness: DaemonHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const runbook = (id: string, overrides: Record<string, unknown> = {}) =>
  frontmatter({id, title: `Runbook ${id}`, scope: 'project', status: 'stable', priority: 'medium', owner: 'architect', created: TODAY, updated: TODAY, ...overrides}, WORKFLOW_BODY)
const runLog = (workflow: string, date: string, outcome = 'success') => frontmatter({workflow, date, operator: 'ana', agent: 'developer', outcome}, '\nWhat happened.\n')

const conforms = (schema: string, value: unknown) => {
  const validate = getValidator(schema)
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true)
}

describe('GET /workflows', () => {
  it('lists every runbook by number with its log count, and a broken one with its problem', async () => {
    const repo = makeRepo({
      '.mesh/workflows/W2-deploy.md': runbook('W2', {title: 'Deploy', scope: 'module', status: 'draft', updated: '2026-01-04'}),
      '.mesh/workflows/W10-audit.md': runbook('W10'),
      '.mesh/workflows/W3-broken.md': '---\ntitle: [unclosed\n---\nBody.\n',
      '.mesh/workflows/W4-no-frontmatter.md': '# Just prose\n',
      '.mesh/workflows/README.md': '# Workflows\n',
      '.mesh/workflows/notes.md': '# not a runbook\n',
      '.mesh/workflows/log/2026-01/W1-2026-01-05-first.md': runLog('W1', '2026-01-05'),
      '.mesh/workflows/log/2025-12/W1-2025-12-30-older.md': runLog('W1', '2025-12-30'),
      // W12's log must not count as W1's.
      '.mesh/workflows/log/2026-01/W12-2026-01-02-other.md': runLog('W12', '2026-01-02'),
      '.mesh/workflows/log/not-a-month/W1-2026-01-01-x.md': runLog('W1', '2026-01-01'),
    })
    harness = await startHarness({repo})
    const answer = await harness.call('GET', '/workflows')
    expect(answer.status).toBe(200)
    conforms('daemon-workflow-list', answer.body)
    const list = answer.body.workflows
    expect(list.map((item: any) => item.id)).toEqual(['W1', 'W2', 'W3', 'W4', 'W10'])
    expect(list[0]).toEqual({id: 'W1', path: 'workflows/W1-release.md', title: 'Release', scope: 'project', status: 'stable', updated: TODAY, log_count: 2, problem: null})
    expect(list[1]).toMatchObject({title: 'Deploy', scope: 'module', status: 'draft', updated: '2026-01-04', log_count: 0, problem: null})
    expect(list[2]).toMatchObject({id: 'W3', title: null, scope: null, log_count: 0})
    expect(list[2].problem).toMatch(/not valid YAML: .*\(line 3, column 1\)$/)
    expect(list[3].problem).toBe('the file has no --- frontmatter block')
  })

  it('reports a frontmatter that breaks the schema, an id that differs from the name and an id used twice', async () => {
    const repo = makeRepo({
      '.mesh/workflows/W2-wip.md': runbook('W2', {status: 'wip'}),
      '.mesh/workflows/W3-named.md': runbook('W7'),
      '.mesh/workflows/W1-again.md': runbook('W1'),
    })
    harness = await startHarness({repo})
    const list = (await harness.call('GET', '/workflows')).body.workflows
    expect(list.map((item: any) => item.path)).toEqual(['workflows/W1-again.md', 'workflows/W1-release.md', 'workflows/W2-wip.md', 'workflows/W3-named.md'])
    expect(list[0].problem).toBeNull()
    expect(list[1].problem).toBe('id W1 is also used by workflows/W1-again.md, which the routes serve')
    expect(list[2]).toMatchObject({status: 'wip'})
    expect(list[2].problem).toMatch(/workflow\.schema\.json: status: must be one of "draft", "stable", "deprecated"/)
    expect(list[3].problem).toBe("the frontmatter id W7 differs from the file name's W3")
    // The first file by name is the one served.
    expect((await harness.call('GET', '/workflows/W1')).body.path).toBe('workflows/W1-again.md')
  })

  it('reads missing folders as empty', async () => {
    const repo = makeRepo()
    repo.remove('.mesh/workflows')
    harness = await startHarness({repo})
    expect((await harness.call('GET', '/workflows')).body).toEqual({workflows: []})
    expect((await harness.call('GET', '/protocols')).body).toEqual({protocols: []})
  })

  it('follows no symbolic link, to a file or a folder', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'mesh-outside-'))
    try {
      writeFileSync(join(outside, 'W5-secret.md'), runbook('W5', {title: 'Secret'}))
      writeFileSync(join(outside, 'P1-secret.md'), runbook('P1', {title: 'Secret'}))
      const repo = makeRepo()
      symlinkSync(join(outside, 'W5-secret.md'), join(repo.root, '.mesh/workflows/W5-link.md'))
      symlinkSync(outside, join(repo.root, '.mesh/protocols'))
      harness = await startHarness({repo})
      const list = (await harness.call('GET', '/workflows')).body.workflows
      expect(list.map((item: any) => item.id)).toEqual(['W1'])
      expect((await harness.call('GET', '/workflows/W5')).status).toBe(404)
      expect((await harness.call('GET', '/protocols')).body).toEqual({protocols: []})
      expect((await harness.call('GET', '/protocols/P1')).status).toBe(404)
    } finally {
      rmSync(outside, {recursive: true, force: true})
    }
  })
})

describe('GET /workflows/:id', () => {
  it('answers the raw markdown and the parsed frontmatter', async () => {
    harness = await startHarness()
    const answer = await harness.call('GET', '/workflows/W1')
    expect(answer.status).toBe(200)
    conforms('daemon-runbook', answer.body)
    expect(answer.body.markdown).toBe(harness.repo.read('.mesh/workflows/W1-release.md'))
    expect(answer.body.frontmatter).toEqual({id: 'W1', title: 'Release', scope: 'project', status: 'stable', priority: 'high', owner: 'architect', created: TODAY, updated: TODAY})
    expect(answer.body).toMatchObject({id: 'W1', path: 'workflows/W1-release.md', log_count: 0, problem: null})
  })

  it('serves a runbook whose frontmatter is broken, with frontmatter null', async () => {
    harness = await startHarness({repo: makeRepo({'.mesh/workflows/W3-broken.md': '---\ntitle: [unclosed\n---\nBody.\n'})})
    const answer = await harness.call('GET', '/workflows/W3')
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({frontmatter: null, markdown: '---\ntitle: [unclosed\n---\nBody.\n'})
    expect(answer.body.problem).toMatch(/not valid YAML/)
  })

  it('refuses malformed ids with 400 and unknown ones with 404', async () => {
    harness = await startHarness()
    for (const path of ['/workflows/w1', '/workflows/P1', '/workflows/W1x', '/workflows/..', '/workflows/%2e%2e', '/workflows/..%2f..%2fpublic%2fcluster.yaml', '/workflows/%2e%2e%2fW1', '/workflows/%E0%A4%A', '/workflows/W1%00', '/workflows/..%2fW1/runs', '/protocols/W1']) {
      const answer = await harness.call('GET', path)
      expect(answer.status, path).toBe(400)
      expect(answer.body.error.code, path).toBe('invalid_id')
    }
    const unknown = await harness.call('GET', '/workflows/W99')
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('workflow_not_found')
    expect((await harness.call('GET', '/workflows/W99/runs')).body.error.code).toBe('workflow_not_found')
    expect((await harness.call('GET', '/protocols/P1')).body.error.code).toBe('protocol_not_found')
  })

  it('needs no token', async () => {
    harness = await startHarness()
    expect((await harness.call('GET', '/workflows/W1', {headers: {authorization: 'Bearer wrong'}})).status).toBe(200)
  })
})

describe('GET /workflows/:id/runs', () => {
  it('answers the latest 50 run logs, newest first, with the total', async () => {
    const files: Record<string, string> = {}
    // 55 runs over three months; two on the same day (ordered by name, descending).
    for (let day = 1; day <= 25; day++) files[`.mesh/workflows/log/2025-11/W1-2025-11-${String(day).padStart(2, '0')}-run.md`] = runLog('W1', `2025-11-${String(day).padStart(2, '0')}`)
    for (let day = 1; day <= 28; day++) files[`.mesh/workflows/log/2025-12/W1-2025-12-${String(day).padStart(2, '0')}-run.md`] = runLog('W1', `2025-12-${String(day).padStart(2, '0')}`)
    files['.mesh/workflows/log/2026-01/W1-2026-01-05-a.md'] = runLog('W1', '2026-01-05', 'partial')
    files['.mesh/workflows/log/2026-01/W1-2026-01-05-b.md'] = '---\nworkflow: W1\ndate: [broken\n---\n'
    files['.mesh/workflows/log/2026-01/W10-2026-01-06-c.md'] = runLog('W10', '2026-01-06')
    files['.mesh/workflows/log/2026-01/W1-notes.md'] = runLog('W1', '2026-01-07')
    harness = await startHarness({repo: makeRepo(files)})
    const answer = await harness.call('GET', '/workflows/W1/runs')
    expect(answer.status).toBe(200)
    conforms('daemon-runbook-runs', answer.body)
    const {runs, total} = answer.body
    expect(total).toBe(55)
    expect(runs).toHaveLength(50)
    expect(runs[0]).toMatchObject({path: 'workflows/log/2026-01/W1-2026-01-05-b.md', workflow: null, date: null})
    expect(runs[0].problem).toMatch(/not valid YAML/)
    expect(runs[1]).toEqual({path: 'workflows/log/2026-01/W1-2026-01-05-a.md', workflow: 'W1', date: '2026-01-05', operator: 'ana', agent: 'developer', outcome: 'partial', problem: null})
    expect(runs[2].date).toBe('2025-12-28')
    // 2 in January, 28 in December, then the newest 20 of November's 25.
    expect(runs[49].date).toBe('2025-11-06')
    const dates = runs.slice(1).map((run: any) => run.date)
    expect(dates).toEqual([...dates].sort().reverse())
    expect((await harness.call('GET', '/workflows')).body.workflows[0].log_count).toBe(55)
  })

  it('answers no runs when the log folder is missing', async () => {
    harness = await startHarness()
    expect((await harness.call('GET', '/workflows/W1/runs')).body).toEqual({id: 'W1', runs: [], total: 0})
  })

  it('reports a log whose workflow differs from its file name', async () => {
    harness = await startHarness({repo: makeRepo({'.mesh/workflows/log/2026-01/W1-2026-01-05-x.md': runLog('W2', '2026-01-05')})})
    const [run] = (await harness.call('GET', '/workflows/W1/runs')).body.runs
    expect(run.problem).toBe('workflow is W2 but the file name names W1')
  })
})

describe('/protocols', () => {
  it('lists, reads and gives the runs of protocols', async () => {
    const repo = makeRepo({
      '.mesh/protocols/P1-handover.md': runbook('P1', {title: 'Handover'}),
      '.mesh/protocols/log/2026-01/P1-2026-01-03-night.md': runLog('P1', '2026-01-03'),
    })
    harness = await startHarness({repo})
    const list = await harness.call('GET', '/protocols')
    conforms('daemon-protocol-list', list.body)
    expect(list.body.protocols).toEqual([{id: 'P1', path: 'protocols/P1-handover.md', title: 'Handover', scope: 'project', status: 'stable', updated: TODAY, log_count: 1, problem: null}])
    expect((await harness.call('GET', '/protocols/P1')).body.frontmatter.title).toBe('Handover')
    const runs = (await harness.call('GET', '/protocols/P1/runs')).body
    expect(runs).toEqual({id: 'P1', total: 1, runs: [{path: 'protocols/log/2026-01/P1-2026-01-03-night.md', workflow: 'P1', date: '2026-01-03', operator: 'ana', agent: 'developer', outcome: 'success', problem: null}]})
    expect((await harness.call('GET', '/protocols/p1')).body.error.code).toBe('invalid_id')
  })
})
