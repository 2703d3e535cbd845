import {describe, expect, it} from 'vitest'
import {stringify} from 'yaml'
import {CLUSTER, taskFile} from '../fixtures.js'
import {brief, findingsFor, ofRule} from './helpers.js'

const cluster = (modules: Array<Record<string, unknown>>, extra: Record<string, unknown> = {}) => ({'.mesh/public/cluster.yaml': stringify({...CLUSTER, ...extra, modules})})
const base = CLUSTER.modules

describe('cluster rules', () => {
  it('transport-workflow: sse and nats are refused with the reason; an endpoint or fallback the daemon cannot join too', async () => {
    for (const workflow of ['sse', 'nats']) {
      const findings = ofRule(await findingsFor(cluster(base, {transport: {workflow, endpoint: 'https://hub.example.com/events'}})), 'transport-workflow')
      expect(findings.map((f) => [f.severity, f.message])).toEqual([['error', expect.stringMatching(new RegExp(`transport.workflow is ${workflow}: mesh does not serve a ${workflow} transport`))]])
    }
    const unjoinable = ofRule(await findingsFor(cluster(base, {transport: {endpoint: 'https://hub.example.com/rooms/demo?token=ck_x', fallback: 'nats://127.0.0.1:4222'}})), 'transport-workflow')
    expect(unjoinable.map((f) => f.message)).toEqual([expect.stringMatching(/^transport.endpoint https:\/\/hub.example.com\/rooms\/demo is not a ws/), expect.stringMatching(/^transport.fallback nats:\/\/127.0.0.1:4222 is not/)])
    expect(JSON.stringify(unjoinable)).not.toContain('ck_x')
    const fine = {workflow: 'websocket', endpoint: 'https://hub.example.com/v1/clusters/c_abcdefghijklmnopqr/ws', fallback: 'wss://backup.example.com/v1/clusters/c_abcdefghijklmnopqr/ws'}
    expect(ofRule(await findingsFor(cluster(base, {transport: fine})), 'transport-workflow')).toEqual([])
  })

  it('module-duplicate', async () => {
    const findings = await findingsFor(cluster([...base, {id: 'api', kind: 'code', path: 'x'}]))
    expect(ofRule(findings, 'module-duplicate')).toHaveLength(1)
  })

  it('module-parent: parent must be a module, not itself, and parents must not loop', async () => {
    const findings = await findingsFor(
      cluster([
        ...base,
        {id: 'ui', kind: 'docs', parent: 'nowhere'},
        {id: 'loop', kind: 'docs', parent: 'loop'},
        {id: 'aa', kind: 'docs', parent: 'bb'},
        {id: 'bb', kind: 'docs', parent: 'cc'},
        {id: 'cc', kind: 'docs', parent: 'aa'},
        {id: 'dd', kind: 'docs', parent: 'aa'},
      ]),
    )
    expect(ofRule(findings, 'module-parent').map((finding) => finding.message)).toEqual([
      'module "ui" has parent "nowhere", which is not a module',
      'module "loop" is its own parent',
      'module parents loop: aa → bb → cc → aa',
    ])
  })

  it('project-structure: kind, parent and path of project; the four children; code modules', async () => {
    const modules = [
      {id: 'project', kind: 'code', path: 'x', parent: 'general'},
      {id: 'deploy', kind: 'area', parent: 'project'},
      {id: 'docs', kind: 'area'},
      {id: 'general', kind: 'area', parent: 'project'},
      {id: 'api', kind: 'code', parent: 'project'},
      {id: 'project', kind: 'area'},
    ]
    const messages = ofRule(await findingsFor(cluster(modules)), 'project-structure').map((finding) => finding.message)
    expect(messages).toEqual(
      expect.arrayContaining([
        'only one `project` module is allowed',
        'the `project` module must have kind `area`',
        'the `project` module has no parent',
        'the `project` module has no path',
        'module `docs` must carry `parent: project`',
        'module `design` is missing: v13 requires deploy, docs, design and general under `project`',
        'code module `api` needs a `path`',
        'code module `api` is a peer of `project` and has no parent',
      ]),
    )
  })

  it('schema: general and project must be present (described message)', async () => {
    const findings = await findingsFor(cluster(base.filter((module) => module.id !== 'general' && module.id !== 'deploy')))
    expect(ofRule(findings, 'schema').map((finding) => finding.message)).toEqual(['modules must include a module with id `general` (spec v13).'])
  })

  it('member-duplicate', async () => {
    const member = {id: 'm1', role: 'participant', pubkey: 'k', pubkey_fingerprint: 'SHA256:x', authorized_at: '2026-01-05', authorized_by: 'op'}
    const files = cluster(base, {members: [member, {...member}]})
    const lines = files['.mesh/public/cluster.yaml'].split('\n')
    const secondMember = lines.findIndex((line, index) => line.includes('id: m1') && lines.slice(0, index).some((earlier) => earlier.includes('id: m1'))) + 1
    const findings = await findingsFor(files)
    expect(brief(findings)).toEqual([`member-duplicate@.mesh/public/cluster.yaml:${secondMember}`])
  })

  it('links-module: entries name cluster modules, once', async () => {
    expect(await findingsFor({'.mesh/public/links.yaml': 'version: 1\nmodules:\n  - id: api\n'})).toEqual([])
    const findings = await findingsFor({'.mesh/public/links.yaml': 'version: 1\nmodules:\n  - id: api\n  - id: api\n  - id: billing\n'})
    expect(brief(findings)).toEqual(['links-module@.mesh/public/links.yaml:4', 'links-module@.mesh/public/links.yaml:5'])
  })

  it('module-folder: a modules/<id>/ folder that is not a module warns once', async () => {
    const findings = await findingsFor({'.mesh/modules/billing/README.md': '# billing\n', '.mesh/modules/billing/tasks/BIL1-xx.md': taskFile({id: 'BIL1', category: 'billing'})})
    expect(ofRule(findings, 'module-folder')).toMatchObject([{file: '.mesh/modules/billing/', severity: 'warning'}])
    expect(ofRule(findings, 'task-category')).toHaveLength(1)
  })

  it('a broken cluster.yaml is one parse finding and no cascade of module findings', async () => {
    const findings = await findingsFor({'.mesh/public/cluster.yaml': 'version: 1\nmodules: [\n'})
    expect(findings.map((finding) => finding.rule)).toEqual(['parse'])
  })
})
