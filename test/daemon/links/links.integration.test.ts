import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {getValidator} from '../../../src/lib/schemas.js'
import {makeRepo} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'

let harness: DaemonHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const LINKS = '.mesh/public/links.yaml'

/** A hand-written links.yaml: comments everywhere, keys in no alphabetical order, quoted and flow values. */
const COMMENTED = `# Where each module runs. Keep in step with deploys.
version: 1
modules:
  # The public API.
  - id: api
    repo:
      branch: main # the only branch
      version: "1.1"
    prod:
      url: https://api.example.com
      provider: fly # moved from render in 2025
      deployed_version: 1.1.0
    notes: ask ana before deploying
  - id: docs
    local: { url: "http://localhost:4000", command: npm run docs }
`

const post = (h: DaemonHarness, id: string, body: unknown) => h.call('POST', `/links/${id}`, {auth: true, body: typeof body === 'string' ? body : JSON.stringify(body)})

const conforms = (schema: string, value: unknown) => {
  const validate = getValidator(schema)
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true)
}

describe('GET /links', () => {
  it('reads a missing file as version 1 with no modules', async () => {
    harness = await startHarness()
    const answer = await harness.call('GET', '/links')
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({version: 1, modules: []})
    const one = await harness.call('GET', '/links/api')
    expect(one.status).toBe(404)
    expect(one.body.error.code).toBe('link_not_found')
  })

  it('answers the registry and one module as JSON, without a token', async () => {
    harness = await startHarness({repo: makeRepo({[LINKS]: COMMENTED})})
    const all = await harness.call('GET', '/links')
    conforms('links-yaml', all.body)
    expect(all.body.modules.map((m: any) => m.id)).toEqual(['api', 'docs'])
    const api = await harness.call('GET', '/links/api')
    expect(api.status).toBe(200)
    conforms('daemon-links-entry', api.body)
    expect(api.body).toEqual({id: 'api', repo: {branch: 'main', version: '1.1'}, prod: {url: 'https://api.example.com', provider: 'fly', deployed_version: '1.1.0'}, notes: 'ask ana before deploying'})
    expect((await harness.call('GET', '/links/general')).body.error.code).toBe('link_not_found')
  })

  it('answers 409 links_yaml_invalid for a file that is not YAML or not a mapping', async () => {
    harness = await startHarness({repo: makeRepo({[LINKS]: 'modules: [unclosed\n'})})
    const broken = await harness.call('GET', '/links')
    expect(broken.status).toBe(409)
    expect(broken.body.error.code).toBe('links_yaml_invalid')
    expect(broken.body.error.message).toMatch(/line 2/)
    harness.repo.write(LINKS, '- just\n- a list\n')
    expect((await harness.call('GET', '/links/api')).body.error.code).toBe('links_yaml_invalid')
    expect((await post(harness, 'api', {repo: {head_sha: 'abc'}})).status).toBe(409)
    expect(harness.repo.read(LINKS)).toBe('- just\n- a list\n')
  })
})

describe('POST /links/:id', () => {
  it('patches one module, keeping every comment, the key order and the quoting of the rest', async () => {
    harness = await startHarness({repo: makeRepo({[LINKS]: COMMENTED})})
    const answer = await post(harness, 'api', {prod: {deployed_version: '1.2.0', deployed_at: '2026-01-05T10:00:00Z', region: null}, repo: {head_sha: 'abc123', version: '1.2'}, local: {url: 'http://localhost:3000'}})
    expect(answer.status).toBe(200)
    conforms('daemon-links-entry', answer.body)
    expect(answer.body).toEqual({
      id: 'api',
      local: {url: 'http://localhost:3000'},
      repo: {branch: 'main', version: '1.2', head_sha: 'abc123'},
      prod: {url: 'https://api.example.com', provider: 'fly', deployed_version: '1.2.0', deployed_at: '2026-01-05T10:00:00Z'},
      notes: 'ask ana before deploying',
    })
    expect(harness.repo.read(LINKS)).toBe(`# Where each module runs. Keep in step with deploys.
version: 1
modules:
  # The public API.
  - id: api
    local:
      url: http://localhost:3000
    repo:
      branch: main # the only branch
      version: "1.2"
      head_sha: abc123
    prod:
      url: https://api.example.com
      provider: fly # moved from render in 2025
      deployed_version: 1.2.0
      deployed_at: 2026-01-05T10:00:00Z
    notes: ask ana before deploying
  - id: docs
    local: { url: "http://localhost:4000", command: npm run docs }
`)
    expect(await harness.call('GET', '/links/api')).toMatchObject({status: 200, body: answer.body})
  })

  it('keeps the previous links.yaml as a snapshot', async () => {
    harness = await startHarness({repo: makeRepo({[LINKS]: COMMENTED})})
    expect((await post(harness, 'api', {repo: {head_sha: 'abc'}})).status).toBe(200)
    const snapshots = join(harness.repo.root, '.mesh/snapshots')
    const [day] = readdirSync(snapshots)
    const index = readFileSync(join(snapshots, day, 'index.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))
    expect(index).toHaveLength(1)
    expect(index[0]).toMatchObject({path: 'public/links.yaml', reason: 'links.patch'})
    expect(readFileSync(join(harness.repo.root, '.mesh', index[0].snapshot), 'utf8')).toBe(COMMENTED)
  })

  it('removes a key with null, a block with null, and a block its removals leave empty', async () => {
    harness = await startHarness({repo: makeRepo({[LINKS]: COMMENTED})})
    expect((await post(harness, 'api', {repo: {branch: null, version: null}, prod: null})).body).toEqual({id: 'api', notes: 'ask ana before deploying'})
    expect((await post(harness, 'docs', {local: {command: null}})).body).toEqual({id: 'docs', local: {url: 'http://localhost:4000'}})
    expect(harness.repo.read(LINKS)).toBe(`# Where each module runs. Keep in step with deploys.
version: 1
modules:
  # The public API.
  - id: api
    notes: ask ana before deploying
  - id: docs
    local: { url: "http://localhost:4000" }
`)
  })

  it('creates the file and the entry for a module of cluster.yaml', async () => {
    harness = await startHarness()
    const answer = await post(harness, 'api', {prod: {provider: 'vercel', url: 'https://demo.example.com'}})
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({id: 'api', prod: {provider: 'vercel', url: 'https://demo.example.com'}})
    expect(harness.repo.read(LINKS)).toBe('version: 1\nmodules:\n  - id: api\n    prod:\n      provider: vercel\n      url: https://demo.example.com\n')
    // No previous file: nothing to keep.
    expect(existsSync(join(harness.repo.root, '.mesh/snapshots'))).toBe(false)
    expect((await post(harness, 'general', {repo: {branch: 'main'}})).status).toBe(200)
    expect((await harness.call('GET', '/links')).body.modules.map((m: any) => m.id)).toEqual(['api', 'general'])
  })

  it('keeps a file whose list items are not indented that way, and appends to `modules: []` as a block', async () => {
    harness = await startHarness({repo: makeRepo({[LINKS]: 'version: 1\nmodules:\n- id: api\n  repo:\n    branch: main\n'})})
    await post(harness, 'api', {repo: {version: '2.0.0'}})
    await post(harness, 'docs', {local: {url: 'http://localhost:4000'}})
    expect(harness.repo.read(LINKS)).toBe('version: 1\nmodules:\n- id: api\n  repo:\n    branch: main\n    version: 2.0.0\n- id: docs\n  local:\n    url: http://localhost:4000\n')
    harness.repo.write(LINKS, 'version: 1 # always\nmodules: []\n')
    await post(harness, 'api', {repo: {branch: 'main'}})
    expect(harness.repo.read(LINKS)).toBe('version: 1 # always\nmodules:\n  - id: api\n    repo:\n      branch: main\n')
  })

  it('refuses values links-yaml.schema.json refuses, naming the body field, and writes nothing', async () => {
    harness = await startHarness({repo: makeRepo({[LINKS]: COMMENTED})})
    const cases: Array<[unknown, string]> = [
      [{prod: {url: 'not a url'}}, 'prod.url'],
      [{prod: {provider: 'heroku'}}, 'prod.provider'],
      [{prod: {deployed_at: 'yesterday'}}, 'prod.deployed_at'],
      [{local: {url: 'http://localhost:1', port: '1'}}, 'local.port'],
      [{repo: {version: 2}}, 'repo.version'],
      [{repo: 'main'}, 'repo'],
      [{notes: 'hi'}, 'notes'],
      [{id: 'web'}, 'id'],
    ]
    for (const [body, field] of cases) {
      const answer = await post(harness, 'api', body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body.error, JSON.stringify(body)).toMatchObject({code: 'invalid_body', field})
    }
    expect(harness.repo.read(LINKS)).toBe(COMMENTED)
    expect(existsSync(join(harness.repo.root, '.mesh/snapshots'))).toBe(false)
  })

  it('answers 409 when the file is already invalid somewhere the patch does not touch', async () => {
    const invalid = COMMENTED.replace('provider: fly', 'provider: heroku')
    harness = await startHarness({repo: makeRepo({[LINKS]: invalid})})
    const answer = await post(harness, 'api', {repo: {head_sha: 'abc'}})
    expect(answer.status).toBe(409)
    expect(answer.body.error).toMatchObject({code: 'links_yaml_invalid', field: 'modules[0].prod.provider'})
    // Setting the broken key itself repairs the file.
    expect((await post(harness, 'api', {prod: {provider: 'fly'}})).status).toBe(200)
    expect(harness.repo.read(LINKS)).toBe(COMMENTED)
  })

  it('refuses bodies that are not one JSON object of blocks, and an oversized body', async () => {
    harness = await startHarness({repo: makeRepo({[LINKS]: COMMENTED})})
    for (const body of ['[]', '"prod"', '42', 'null', '{}']) {
      const answer = await post(harness, 'api', body)
      expect(answer.status, body).toBe(400)
      expect(answer.body.error.code, body).toBe('invalid_body')
    }
    expect((await post(harness, 'api', '{"prod":')).body.error.code).toBe('invalid_json')
    const huge = await post(harness, 'api', JSON.stringify({prod: {deploy_command: 'x'.repeat(1024 * 1024)}}))
    expect(huge.status).toBe(413)
    expect(huge.body.error.code).toBe('body_too_large')
    const long = await post(harness, 'api', {prod: {deploy_command: 'x'.repeat(4097)}})
    expect(long.body.error).toMatchObject({code: 'invalid_body', field: 'prod.deploy_command'})
    expect(harness.repo.read(LINKS)).toBe(COMMENTED)
  })

  it('needs the portal token, a module of cluster.yaml and a well-formed id', async () => {
    harness = await startHarness()
    const anonymous = await harness.call('POST', '/links/api', {body: JSON.stringify({repo: {branch: 'main'}})})
    expect(anonymous.status).toBe(401)
    const unknown = await post(harness, 'web', {repo: {branch: 'main'}})
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('module_not_found')
    for (const id of ['..', '%2e%2e', '..%2f..%2fpublic%2fcluster.yaml', '%2e%2e%2fcluster', 'API', 'a', '%E0%A4%A']) {
      for (const answer of [await post(harness, id, {repo: {branch: 'main'}}), await harness.call('GET', `/links/${id}`)]) {
        expect(answer.status, id).toBe(400)
        expect(answer.body.error.code, id).toBe('invalid_id')
      }
    }
    expect(existsSync(join(harness.repo.root, LINKS))).toBe(false)
  })

  it('loses no update when patches arrive together', async () => {
    harness = await startHarness({repo: makeRepo({[LINKS]: COMMENTED})})
    const patches = [
      {prod: {deployed_version: '2.0.0'}},
      {prod: {deployed_sha: 'f00'}},
      {prod: {deployed_by: 'deployer'}},
      {repo: {head_sha: 'f00'}},
      {local: {health: 'http://localhost:3000/health'}},
    ]
    const answers = await Promise.all([...patches.map((patch) => post(harness!, 'api', patch)), post(harness, 'docs', {repo: {branch: 'docs'}})])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200])
    const {body} = await harness.call('GET', '/links')
    expect(body.modules[0]).toEqual({
      id: 'api',
      local: {health: 'http://localhost:3000/health'},
      repo: {branch: 'main', version: '1.1', head_sha: 'f00'},
      prod: {url: 'https://api.example.com', provider: 'fly', deployed_version: '2.0.0', deployed_sha: 'f00', deployed_by: 'deployer'},
      notes: 'ask ana before deploying',
    })
    expect(body.modules[1].repo).toEqual({branch: 'docs'})
  })

  it('publishes links.updated on /events for its own rewrite', async () => {
    harness = await startHarness({repo: makeRepo({[LINKS]: COMMENTED})})
    const ws = new WebSocket(harness.url.replace('http', 'ws') + '/events', {headers: {authorization: `Bearer ${harness.token}`}})
    await new Promise((resolve, reject) => ws.on('open', resolve).on('error', reject))
    const received = new Promise<any>((resolve) =>
      ws.on('message', (data) => {
        const event = JSON.parse(String(data))
        if (event.type === 'links.updated' && event.data.by === 'daemon') resolve(event)
      }),
    )
    expect((await post(harness, 'api', {repo: {head_sha: 'abc'}})).status).toBe(200)
    expect((await received).data).toEqual({module: 'api', by: 'daemon'})
    ws.close()
  })
})
