import {spawn, type ChildProcess} from 'node:child_process'
import {existsSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {parse} from 'yaml'
import type {DaemonEvent} from '../../../src/protocol/events.js'
import {versionsArea} from '../../../src/daemon/versions/index.js'
import {REPO_ROOT} from '../../support/cli.js'
import {makeRepo, taskFile} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'

const LINKS = '.mesh/public/links.yaml'
const LOCK = '.mesh/.runtime/links.lock'

const COMMENTED = `# Where each module runs.
version: 1
modules:
  # The API first.
  - id: api
    local:
      url: http://localhost:3000 # dev server
    repo:
      branch: main
      version: "1.2.3" # issued by the daemon
    notes: keep me
  - id: general
    notes: untouched
`

let harness: DaemonHarness | undefined
const children: ChildProcess[] = []
afterEach(async () => {
  for (const child of children.splice(0)) child.kill()
  await harness?.close()
  harness = undefined
})

async function start(extra: Record<string, string> = {}) {
  harness = await startHarness({repo: makeRepo(extra), areas: [versionsArea]})
  const events: DaemonEvent[] = []
  harness.running.daemon.context.events.subscribe((event) => events.push(event))
  const next = (body: unknown, raw?: string) => harness!.call('POST', '/version/next', {auth: true, body: raw ?? JSON.stringify(body)})
  const stored = (module = 'api') => (parse(harness!.repo.read(LINKS)).modules as Array<{id: string; repo?: {version?: string}}>).find((m) => m.id === module)?.repo?.version
  return {h: harness, events, next, stored}
}

const compareVersions = (a: string, b: string) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)]
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]
}

describe('POST /version/next', () => {
  it('issues 0.0.1 first for a module with no links.yaml, creates its entry and tells /events', async () => {
    const {h, events, next, stored} = await start()
    const first = await next({bump: 'patch', task_id: 'api1'})
    expect(first.status).toBe(200)
    expect(first.body).toEqual({version: '0.0.1', task_id: 'API1'})
    expect(parse(h.repo.read(LINKS))).toEqual({version: 1, modules: [{id: 'api', repo: {version: '0.0.1'}}]})
    expect(stored()).toBe('0.0.1')
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['links.updated', {module: 'api', by: 'daemon'}],
      ['version.issued', {module: 'api', version: '0.0.1', task_id: 'API1', bump: 'patch'}],
    ])
    expect(existsSync(join(h.repo.root, LOCK))).toBe(false)
  })

  it('bumps from the stored version, keeps comments, order and other entries, and snapshots the old file', async () => {
    const {h, next} = await start({[LINKS]: COMMENTED})
    const issued: string[] = []
    for (const bump of ['minor', 'patch', 'patch', 'major', 'patch']) issued.push((await next({bump, task_id: 'API1'})).body.version)
    expect(issued).toEqual(['1.3.0', '1.3.1', '1.3.2', '2.0.0', '2.0.1'])
    expect(h.repo.read(LINKS)).toBe(COMMENTED.replace('"1.2.3"', '"2.0.1"'))

    const day = readdirSync(join(h.repo.root, '.mesh/snapshots'))[0]
    const index = readFileSync(join(h.repo.root, '.mesh/snapshots', day, 'index.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))
    expect(index).toHaveLength(5)
    expect(index[0]).toMatchObject({path: 'public/links.yaml', reason: 'version.next'})
    expect(readFileSync(join(h.repo.root, '.mesh', index[0].snapshot), 'utf8')).toBe(COMMENTED)
  })

  it('adds repo.version to an entry without one, in the spec key order', async () => {
    const {h, next} = await start({[LINKS]: 'version: 1\nmodules:\n  - id: api\n    notes: later\n'})
    expect((await next({bump: 'minor', task_id: 'API1'})).body.version).toBe('0.1.0')
    expect(h.repo.read(LINKS)).toBe('version: 1\nmodules:\n  - id: api\n    repo:\n      version: 0.1.0\n    notes: later\n')
  })

  it('gives 50 concurrent requests 50 distinct increasing versions and ends links.yaml at the last', async () => {
    const {events, next, stored} = await start()
    const answers = await Promise.all(Array.from({length: 50}, () => next({bump: 'patch', task_id: 'API1'})))
    expect(answers.every((a) => a.status === 200)).toBe(true)
    const versions = answers.map((a) => a.body.version as string)
    expect(new Set(versions).size).toBe(50)
    expect([...versions].sort(compareVersions)).toEqual(Array.from({length: 50}, (_, n) => `0.0.${n + 1}`))
    expect(stored()).toBe('0.0.50')
    // Issued in order: each version.issued event names a higher version than the one before.
    const issued = events.filter((e) => e.type === 'version.issued').map((e) => (e.data as {version: string}).version)
    expect(issued).toEqual(Array.from({length: 50}, (_, n) => `0.0.${n + 1}`))
  })

  it('never issues a version twice when another process issues versions of the same module at the same time', async () => {
    const {h, next, stored} = await start()
    // A second daemon's version logic in its own process (the built dist/: run `npm run build` first).
    const script = join(h.repo.root, 'race.mjs')
    writeFileSync(script, `
      const dist = ${JSON.stringify(join(REPO_ROOT, 'dist/daemon'))}
      const {createDaemon} = await import(dist + '/daemon.js')
      const {issueVersion} = await import(dist + '/versions/index.js')
      const daemon = await createDaemon({root: process.argv[2], areas: []})
      process.stdout.write('ready\\n')
      await new Promise((resolve) => process.stdin.once('data', resolve))
      const versions = []
      await Promise.all(Array.from({length: 25}, () => issueVersion(daemon.context, {bump: 'patch', task_id: 'API1'}).then((v) => versions.push(v.version))))
      await daemon.service.close()
      process.stdout.write(JSON.stringify(versions) + '\\n')
    `)
    const child = spawn(process.execPath, [script, h.repo.root], {stdio: ['pipe', 'pipe', 'pipe']})
    children.push(child)
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk))
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => out.includes('ready\n') && resolve())
      child.on('close', () => reject(new Error(`the racing process ended early: ${err}`)))
    })

    child.stdin.end('go\n')
    const mine = (await Promise.all(Array.from({length: 25}, () => next({bump: 'patch', task_id: 'API1'})))).map((a) => a.body.version as string)
    expect(await exited, err).toBe(0)
    const theirs = JSON.parse(out.split('\n')[1]) as string[]

    const all = [...mine, ...theirs]
    expect(new Set(all).size).toBe(50)
    expect([...all].sort(compareVersions)).toEqual(Array.from({length: 50}, (_, n) => `0.0.${n + 1}`))
    // Each process saw its own versions rise.
    expect([...theirs].sort(compareVersions)).toEqual(theirs)
    expect(stored()).toBe('0.0.50')
    expect(existsSync(join(h.repo.root, LOCK))).toBe(false)
  })

  it('takes over a lock left by a killed process, and answers 503 links_locked while a live one holds it too long', async () => {
    const {h, next, stored} = await start()
    const lock = join(h.repo.root, LOCK)
    writeFileSync(lock, '999999 killed\n')
    expect((await next({bump: 'patch', task_id: 'API1'})).body.version).toBe('0.0.1')
    expect(existsSync(lock)).toBe(false)

    const owner = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {stdio: 'ignore'})
    children.push(owner)
    await new Promise((resolve) => owner.once('spawn', resolve))
    writeFileSync(lock, `${owner.pid} live\n`)
    const refused = await next({bump: 'patch', task_id: 'API1'})
    expect(refused.status).toBe(503)
    expect(refused.body.error.code).toBe('links_locked')
    expect(stored()).toBe('0.0.1')

    owner.kill()
    await new Promise((resolve) => owner.once('exit', resolve))
    expect((await next({bump: 'patch', task_id: 'API1'})).body.version).toBe('0.0.2')
  }, 20_000)

  it('refuses a stored version it cannot read instead of guessing, and leaves the file alone', async () => {
    for (const version of ['v1.2.3', '"1.2"', '1', '"01.2.3"', '"1.2.3-beta.1"', '[1, 2, 3]']) {
      const text = `version: 1\nmodules:\n  - id: api\n    repo:\n      version: ${version}\n`
      const {h, next} = await start({[LINKS]: text})
      const refused = await next({bump: 'patch', task_id: 'API1'})
      expect([refused.status, refused.body.error?.code], version).toEqual([409, 'version_unreadable'])
      expect(refused.body.error.field).toBe('modules[0].repo.version')
      expect(h.repo.read(LINKS)).toBe(text)
      await h.close()
      harness = undefined
    }
  })

  it('answers bad bodies, unknown tasks and broken files with stable codes', async () => {
    const {h, next} = await start({
      '.mesh/modules/api/tasks/API5-stray.md': taskFile({id: 'API5', category: 'nowhere'}),
    })
    const cases: Array<[unknown, number, string, string?]> = [
      [{bump: 'huge', task_id: 'API1'}, 400, 'invalid_body', 'bump'],
      [{task_id: 'API1'}, 400, 'invalid_body', 'bump'],
      [{bump: 'patch'}, 400, 'invalid_body', 'task_id'],
      [{bump: 'patch', task_id: '../../etc/passwd'}, 400, 'invalid_body', 'task_id'],
      [{bump: 'patch', task_id: 'API1%2f..'}, 400, 'invalid_body', 'task_id'],
      [{bump: 'patch', task_id: 12}, 400, 'invalid_body', 'task_id'],
      [{bump: 'patch', task_id: 'API9'}, 404, 'task_not_found'],
      [{bump: 'patch', task_id: 'API5'}, 409, 'task_module_invalid'],
    ]
    for (const [body, status, code, field] of cases) {
      const answer = await next(body)
      expect([answer.status, answer.body.error?.code], JSON.stringify(body)).toEqual([status, code])
      if (field) expect(answer.body.error.field).toBe(field)
    }
    expect((await next(null, '{"bump": "patch",')).body.error.code).toBe('invalid_json')
    expect((await h.call('POST', '/version/next', {body: JSON.stringify({bump: 'patch', task_id: 'API1'})})).status).toBe(401)
    expect(existsSync(join(h.repo.root, LINKS))).toBe(false)

    h.repo.write(LINKS, 'version: 1\nmodules: {api: 1}\n')
    const broken = await next({bump: 'patch', task_id: 'API1'})
    expect([broken.status, broken.body.error.code]).toEqual([409, 'links_yaml_invalid'])
    h.repo.write(LINKS, 'version: 1\nmodules:\n  - id: api\n    repo: main\n')
    const notMap = await next({bump: 'patch', task_id: 'API1'})
    expect([notMap.status, notMap.body.error.code]).toEqual([409, 'links_yaml_invalid'])
    expect(h.repo.read(LINKS)).toBe('version: 1\nmodules:\n  - id: api\n    repo: main\n')
  })
})
