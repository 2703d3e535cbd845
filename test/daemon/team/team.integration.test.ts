import {existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {getValidator} from '../../../src/lib/schemas.js'
import {BASE_TEAM, teamCard} from '../../../src/standard/scaffold/templates/team.js'
import {verifyMemberToken} from '../../../src/daemon/team/index.js'
import {makeRepo, type FixtureRepo} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'

let harness: DaemonHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const ANSWERS = {name: 'Demo', id: 'demo', type: 'product', hub: 'https://hub.example.com', hubDocs: 'https://hub.example.com/docs'} as any
const TOKENS = '.mesh/credentials/team-tokens.yaml'

/** The v38 base team of five, written as `mesh init` would. */
function baseTeamRepo(): FixtureRepo {
  const repo = makeRepo()
  for (const member of BASE_TEAM) repo.write(`.mesh/team/${member.id}.md`, teamCard(member, ANSWERS))
  return repo
}

const conforms = (schema: string, value: unknown) => {
  const validate = getValidator(schema)
  expect(validate(value), JSON.stringify(validate.errors)).toBe(true)
}

const json = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body))
const send = (h: DaemonHarness, method: string, path: string, body?: unknown) => h.call(method, path, {auth: true, ...(body === undefined ? {} : {body: json(body)})})

function recordEvents(h: DaemonHarness) {
  const seen: Array<{type: string; data: unknown}> = []
  h.running.daemon.context.events.subscribe((event: any) => void seen.push({type: event.type, data: event.data}))
  return seen
}

const tokensOf = (repo: FixtureRepo): string => (existsSync(join(repo.root, TOKENS)) ? repo.read(TOKENS) : '')

describe('GET /team and /team/:id', () => {
  it('lists the base team of five with their fields, without a token', async () => {
    harness = await startHarness({repo: baseTeamRepo().write('.mesh/team/.archive/old.md', '---\nid: old\ntitle: Old\n---\n')})
    const list = await harness.call('GET', '/team')
    expect(list.status).toBe(200)
    conforms('daemon-team-list', list.body)
    expect(list.body.members.map((m: any) => m.id)).toEqual(['architect', 'consultant', 'deployer', 'developer', 'git-manager'])
    const consultant = list.body.members.find((m: any) => m.id === 'consultant')
    expect(consultant).toMatchObject({exposure: 'external', client: 'claude', model: 'opus', path: '.mesh/team/consultant.md', problem: null})
    const one = await harness.call('GET', '/team/developer')
    expect(one.status).toBe(200)
    conforms('daemon-team-member', one.body)
    const developer = BASE_TEAM.find((m) => m.id === 'developer')!
    expect(one.body).toMatchObject({id: 'developer', title: developer.title, context: developer.context, exposure: 'internal'})
    expect(one.body.prompt).toBe(`\n${developer.body(ANSWERS)}`)
  })

  it('lists a malformed card with its problem and never breaks the list', async () => {
    const repo = baseTeamRepo()
      .write('.mesh/team/broken.md', '---\nid: broken\ntitle: [unclosed\n---\nBody\n')
      .write('.mesh/team/nofence.md', 'just prose\n')
      .write('.mesh/team/wrongid.md', '---\nid: other\ntitle: Wrong\n---\n')
      .write('.mesh/team/Bad_Name.md', '---\ntitle: x\n---\n')
    harness = await startHarness({repo})
    const list = await harness.call('GET', '/team')
    expect(list.status).toBe(200)
    const problems = Object.fromEntries(list.body.members.map((m: any) => [m.id, m.problem]))
    expect(problems.broken).toMatch(/YAML/)
    expect(problems.nofence).toMatch(/frontmatter/)
    expect(problems.wrongid).toMatch(/not the file name/)
    expect(problems.Bad_Name).toMatch(/not a member id/)
    expect(problems.architect).toBeNull()
  })

  it('refuses bad ids with invalid_id and unknown ones with member_not_found', async () => {
    harness = await startHarness({repo: baseTeamRepo()})
    for (const path of ['/team/..%2f..%2fcluster', '/team/%2e%2e', '/team/A', '/team/x', `/team/${'a'.repeat(33)}`, '/team/1abc']) {
      const answer = await harness.call('GET', path)
      expect([400, 404], path).toContain(answer.status)
      expect(answer.body.error.code, path).toMatch(/^(invalid_id|not_found|member_not_found)$/)
    }
    expect((await harness.call('GET', '/team/A')).body.error.code).toBe('invalid_id')
    const unknown = await harness.call('GET', '/team/nobody')
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('member_not_found')
  })
})

describe('POST, PATCH and DELETE /team', () => {
  it('creates a member file with the authored fields and the prompt as body', async () => {
    harness = await startHarness({repo: baseTeamRepo()})
    const events = recordEvents(harness)
    const created = await send(harness, 'POST', '/team', {id: 'reviewer', title: 'Reviewer', context: ['stack'], effort: 'high', prompt: 'You review.\n'})
    expect(created.status).toBe(201)
    conforms('daemon-team-member', created.body)
    const text = harness.repo.read('.mesh/team/reviewer.md')
    expect(text).toBe('---\nid: reviewer\ntitle: Reviewer\nclient: claude\nmodel: opus\ncontext:\n  - stack\nexposure: internal\neffort: high\n---\nYou review.\n')
    conforms('team-member', {id: 'reviewer', title: 'Reviewer', client: 'claude', model: 'opus', context: ['stack'], exposure: 'internal', effort: 'high'})
    expect(events).toContainEqual({type: 'team.created', data: {id: 'reviewer'}})
    const again = await send(harness, 'POST', '/team', {id: 'reviewer', title: 'Again'})
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('member_exists')
  })

  it('refuses unauthenticated writes and bad bodies with stable codes', async () => {
    harness = await startHarness({repo: baseTeamRepo()})
    expect((await harness.call('POST', '/team', {body: json({id: 'abc', title: 'x'})})).status).toBe(401)
    const cases: Array<[unknown, string]> = [
      [{id: '../evil', title: 'x'}, 'invalid_body'],
      [{id: '%2e%2e%2fevil', title: 'x'}, 'invalid_body'],
      [{id: 'ok-id', title: 7}, 'invalid_body'],
      [{id: 'ok-id', title: 'x', exposure: 'public'}, 'invalid_body'],
      [{id: 'ok-id', title: 'x', context: 'stack'}, 'invalid_body'],
      [{id: 'ok-id', title: 'x', extra: true}, 'invalid_body'],
      [{id: 'ok-id', title: 'x', prompt: 'p'.repeat(70_000)}, 'invalid_body'],
      [{title: 'x'}, 'invalid_body'],
    ]
    for (const [body, code] of cases) {
      const answer = await send(harness, 'POST', '/team', body)
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(answer.body.error.code).toBe(code)
    }
    const malformed = await send(harness, 'POST', '/team', '{"id":')
    expect(malformed.status).toBe(400)
    const huge = await send(harness, 'POST', '/team', {id: 'big', title: 'x', prompt: 'p'.repeat(3_000_000)})
    expect([400, 413]).toContain(huge.status)
    expect(huge.body.error.code).toBeTruthy()
    const patchBad = await send(harness, 'PATCH', '/team/..%2fcluster', {title: 'x'})
    expect(patchBad.status).toBe(400)
    expect(patchBad.body.error.code).toBe('invalid_id')
    expect((await send(harness, 'PATCH', '/team/developer', {})).status).toBe(400)
    expect((await send(harness, 'PATCH', '/team/developer', {id: 'other'})).body.error.code).toBe('invalid_body')
    expect((await send(harness, 'DELETE', '/team/%2e%2e')).status).toBe(400)
    expect((await send(harness, 'DELETE', '/team/nobody')).body.error.code).toBe('member_not_found')
    expect(existsSync(join(harness.repo.root, '.mesh/team/ok-id.md'))).toBe(false)
  })

  it('patches fields keeping the body byte for byte and drops retired fields', async () => {
    const body = 'Hand-written prose.\r\n\n  - with odd spacing   \n\n\n'
    const repo = baseTeamRepo().write('.mesh/team/old.md', `---\nid: old\nname: Old one\ntitle: Old\nkind: specialist\nowns: [api]\nclient: claude # the CLI\nmodel: opus\n---\n${body}`)
    harness = await startHarness({repo})
    const events = recordEvents(harness)
    const patched = await send(harness, 'PATCH', '/team/old', {title: 'Renewed', context: ['stack', 'architecture'], model: null, effort: 'low'})
    expect(patched.status).toBe(200)
    const text = harness.repo.read('.mesh/team/old.md')
    expect(text.endsWith(`---\n${body}`)).toBe(true)
    expect(text).not.toMatch(/^(name|kind|owns):/m)
    expect(text).not.toMatch(/^model:/m)
    expect(text).toContain('client: claude # the CLI')
    expect(patched.body).toMatchObject({id: 'old', title: 'Renewed', context: ['stack', 'architecture'], model: null, effort: 'low', problem: null, prompt: body})
    expect(events).toContainEqual({type: 'team.updated', data: {id: 'old'}})

    const prompt = await send(harness, 'PATCH', '/team/old', {prompt: 'New prompt.\n'})
    expect(prompt.status).toBe(200)
    expect(harness.repo.read('.mesh/team/old.md')).toMatch(/\n---\nNew prompt\.\n$/)

    harness.repo.write('.mesh/team/bad.md', '---\ntitle: [x\n---\n')
    const bad = await send(harness, 'PATCH', '/team/bad', {title: 'y'})
    expect(bad.status).toBe(409)
    expect(bad.body.error.code).toBe('member_malformed')
  })

  it('deletes a member (snapshot kept) and revokes its token', async () => {
    harness = await startHarness({repo: baseTeamRepo()})
    const events = recordEvents(harness)
    const before = harness.repo.read('.mesh/team/consultant.md')
    await send(harness, 'GET', '/team/consultant/token')
    expect(tokensOf(harness.repo)).toMatch(/consultant: mtk_/)
    const deleted = await send(harness, 'DELETE', '/team/consultant')
    expect(deleted.status).toBe(200)
    expect(deleted.body).toEqual({id: 'consultant', deleted: true})
    expect(existsSync(join(harness.repo.root, '.mesh/team/consultant.md'))).toBe(false)
    expect(tokensOf(harness.repo)).not.toMatch(/consultant/)
    expect(events).toContainEqual({type: 'team.deleted', data: {id: 'consultant'}})
    const index = readFileSync(join(harness.repo.root, '.mesh/snapshots', new Date().toISOString().slice(0, 10), 'index.jsonl'), 'utf8')
    const record = index.trim().split('\n').map((line) => JSON.parse(line)).find((r) => r.path === 'team/consultant.md')
    expect(record.reason).toBe('team.delete')
    expect(harness.repo.read(`.mesh/${record.snapshot}`)).toBe(before)
    expect((await harness.call('GET', '/team/consultant')).status).toBe(404)
  })
})

describe('member tokens', () => {
  it('exposing creates a 0600 token kept only in team-tokens.yaml; rotate kills the old one; internal revokes it', async () => {
    harness = await startHarness({repo: baseTeamRepo()})
    const context = harness.running.daemon.context
    const created = await send(harness, 'POST', '/team', {id: 'helper', title: 'Helper', exposure: 'external', prompt: 'You help.\n'})
    expect(created.status).toBe(201)
    const copy = await send(harness, 'GET', '/team/helper/token')
    expect(copy.status).toBe(200)
    const token: string = copy.body.token
    expect(token).toMatch(/^mtk_[A-Za-z0-9_-]{43}$/)
    expect(tokensOf(harness.repo)).toContain(`helper: ${token}`)
    expect(statSync(join(harness.repo.root, TOKENS)).mode & 0o777).toBe(0o600)
    expect(harness.repo.read('.mesh/team/helper.md')).not.toContain(token)
    expect(await verifyMemberToken(context, 'helper', token)).toBe(true)
    expect(await verifyMemberToken(context, 'consultant', token)).toBe(false)
    expect((await harness.call('GET', '/team/helper/token')).status).toBe(401)

    const rotated = await send(harness, 'POST', '/team/helper/rotate')
    expect(rotated.status).toBe(200)
    expect(rotated.body.token).not.toBe(token)
    expect(await verifyMemberToken(context, 'helper', token)).toBe(false)
    expect(await verifyMemberToken(context, 'helper', rotated.body.token)).toBe(true)

    const revoked = await send(harness, 'PATCH', '/team/helper', {exposure: 'internal'})
    expect(revoked.status).toBe(200)
    expect(tokensOf(harness.repo)).not.toContain('helper')
    expect(await verifyMemberToken(context, 'helper', rotated.body.token)).toBe(false)
    const noToken = await send(harness, 'GET', '/team/helper/token')
    expect(noToken.status).toBe(404)
    expect(noToken.body.error.code).toBe('member_not_found')
    expect((await send(harness, 'POST', '/team/helper/rotate')).status).toBe(404)

    const exposed = await send(harness, 'PATCH', '/team/developer', {exposure: 'external'})
    expect(exposed.status).toBe(200)
    expect(tokensOf(harness.repo)).toMatch(/developer: mtk_/)

    // No token ever reaches the debug stream or a card.
    const stream = readFileSync(context.meshPath('.runtime', 'debug.jsonl'), 'utf8')
    const tail = await harness.call('GET', '/debug/tail', {auth: true})
    for (const secret of [token, rotated.body.token]) {
      expect(stream).not.toContain(secret)
      expect(JSON.stringify(tail.body)).not.toContain(secret)
    }
    expect(stream).toContain('member token rotated for helper')
  })
})

describe('a member-tokens file that is a symbolic link (issue 18)', () => {
  it('holds no usable token: a token the link’s target names is refused, and the first token made replaces the link, never its target', async () => {
    const repo = baseTeamRepo()
    const known = `mtk_${'k'.repeat(43)}`
    // A committed file outside credentials/ that the link would turn into the tokens file.
    repo.write('.mesh/public/known-tokens.yaml', `consultant: ${known}\n`)
    mkdirSync(join(repo.root, '.mesh/credentials'), {recursive: true})
    symlinkSync('../public/known-tokens.yaml', join(repo.root, TOKENS))
    harness = await startHarness({repo})
    const context = harness.running.daemon.context
    expect(await verifyMemberToken(context, 'consultant', known)).toBe(false)
    const asked = await harness.call('POST', '/team/consultant/ask', {headers: {authorization: `Bearer ${known}`, 'x-mesh-project': 'demo'}, body: JSON.stringify({text: 'hi'})})
    expect(asked.status).toBe(401)
    const token = (await send(harness, 'GET', '/team/consultant/token')).body.token
    expect(token).toMatch(/^mtk_/)
    expect(token).not.toBe(known)
    expect(lstatSync(join(repo.root, TOKENS)).isFile()).toBe(true)
    expect(repo.read('.mesh/public/known-tokens.yaml')).toBe(`consultant: ${known}\n`)
    const refused = (await harness.call('GET', '/debug/tail?tag=files.refused', {auth: true})).body.events
    expect(refused.map((event: {msg: string}) => event.msg)).toContainEqual(expect.stringMatching(/^refused \.mesh\/credentials\/team-tokens\.yaml: it is a symbolic link/))
    expect(JSON.stringify(refused)).not.toContain(known)
  })
})

describe('GET /team/:id/.well-known/agent.json', () => {
  it('serves a PublicCard with one ask skill for an external member, 404 for an internal one', async () => {
    harness = await startHarness({repo: baseTeamRepo()})
    const card = await harness.call('GET', '/team/consultant/.well-known/agent.json')
    expect(card.status).toBe(200)
    conforms('public-card', card.body)
    expect(card.body.skills.map((s: any) => s.id)).toEqual(['ask'])
    expect(card.body.url).toBe(`http://127.0.0.1:${harness.running.port}/team/consultant`)
    expect(card.body.availability.now).toBe(true)
    expect(card.body.pricing).toMatchObject({amount: 0, currency: 'free'})
    expect(card.body.skills[0].inputSchema.required).toEqual(['text'])
    for (const id of ['developer', 'nobody']) {
      const hidden = await harness.call('GET', `/team/${id}/.well-known/agent.json`)
      expect(hidden.status).toBe(404)
      expect(hidden.body.error.code).toBe('member_not_found')
    }
    expect((await harness.call('GET', '/team/%2e%2e/.well-known/agent.json')).status).toBe(400)
  })
})

describe('POST /team/draft', () => {
  it('turns free text into a draft from the project context tree and writes nothing', async () => {
    harness = await startHarness({repo: baseTeamRepo()})
    const draft = await send(harness, 'POST', '/team/draft', {text: 'Security reviewer. Reads the architecture and constraints, exposed to partners.'})
    expect(draft.status).toBe(200)
    expect(draft.body).toEqual({id: 'security-reviewer', title: 'Security reviewer', context: ['architecture', 'constraints'], exposure: 'external', prompt: 'Security reviewer. Reads the architecture and constraints, exposed to partners.\n'})
    expect(existsSync(join(harness.repo.root, '.mesh/team/security-reviewer.md'))).toBe(false)
    expect((await send(harness, 'POST', '/team/draft', {text: ''})).status).toBe(400)
    expect((await send(harness, 'POST', '/team/draft', {text: 3})).body.error.code).toBe('invalid_body')
    expect((await harness.call('POST', '/team/draft', {body: json({text: 'x'})})).status).toBe(401)
  })
})
