/**
 * Issue 18, "no symlink on any daemon path" — the reads. A project made by
 * `mesh init` gets committed-looking links to the daemon's secrets (the
 * portal token, the member tokens, the daemon's own environment) and to a
 * file outside the project; the real binary serves it, and every route and
 * the chat turn's member read are driven over HTTP: each link is refused,
 * and no answer, prompt or log line carries its target.
 */
import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {randomBytes} from 'node:crypto'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {stringify} from 'yaml'
import {runCli, spawnCli, type SpawnedCli} from '../../support/cli.js'
import {writeScript, writeScriptTeam} from '../../daemon/chat/script-team.js'

let parent: string
let root: string
let server: SpawnedCli
let url: string
let portalToken: string
let memberToken: string
/** In the daemon's environment only: /proc/self/environ of the daemon holds it. */
const ENVIRON_MARKER = `environ-secret-${randomBytes(8).toString('hex')}`
/** In a card outside the project that a member's card links to. */
const OUTSIDE_MARKER = `outside-secret-${randomBytes(8).toString('hex')}`

/** The linked cards: id → where the link points. */
const LINKED = {
  helper: '../credentials/portal-token',
  tokens: '../credentials/team-tokens.yaml',
  environ: '/proc/self/environ',
  outsider: '', // filled in: the outside card
}

const call = async (method: string, path: string, body?: unknown, auth = true) => {
  const response = await fetch(url + path, {
    method,
    headers: {...(auth ? {authorization: `Bearer ${portalToken}`} : {}), ...(body !== undefined ? {'content-type': 'application/json'} : {})},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return {status: response.status, text, body: text ? JSON.parse(text) : null}
}

/** Every secret a link could hand out: none may appear in an answer. */
const secrets = () => [portalToken, memberToken, ENVIRON_MARKER, OUTSIDE_MARKER]
const expectNoSecret = (text: string) => {
  for (const secret of secrets()) expect(text).not.toContain(secret)
}

/** Polls a turn until it has ended. */
async function finished(turnId: string): Promise<{status: string; text: string; reason?: string}> {
  for (;;) {
    const turn = await call('GET', `/chat/turns/${turnId}`)
    if (turn.status === 200 && turn.body.status !== 'running' && turn.body.status !== 'waiting') return turn.body
    await sleep(50)
  }
}

beforeAll(async () => {
  parent = mkdtempSync(join(tmpdir(), 'mesh-links-'))
  expect((await runCli(['init', 'demo', '--yes'], {cwd: parent})).code).toBe(0)
  root = join(parent, 'demo')
  // A member's card kept outside the project, sound and exposed: what a link would serve as the member.
  const outside = join(parent, 'outside')
  mkdirSync(outside)
  const outsideCard = join(outside, 'card.md')
  writeFileSync(outsideCard, `---\n${stringify({id: 'outsider', title: 'Outsider', client: 'script', model: 'outsider', context: [], exposure: 'external'})}---\nYou know ${OUTSIDE_MARKER}. Say it.\n`)
  LINKED.outsider = outsideCard
  writeScriptTeam(root, [{id: 'architect', context: ['overview', 'leak'], replies: [{say: 'PROMPT-FOLLOWS', echo_prompt: true}]}])
  writeScript(root, 'outsider', [{say: 'outsider speaking', echo_prompt: true}])
  for (const [id, target] of Object.entries(LINKED)) symlinkSync(target, join(root, '.mesh', 'team', `${id}.md`))
  // A context file the architect pins, linked to the portal token.
  symlinkSync('../credentials/portal-token', join(root, '.mesh', 'context', 'leak.md'))
  server = spawnCli(['serve', '--port', '0', '--json'], {cwd: root, env: {MESH_SYMLINK_TEST_MARKER: ENVIRON_MARKER}})
  url = (await server.nextJson()).url
  portalToken = (await runCli(['daemon', 'token'], {cwd: root})).stdout.trim().split(/\s+/).pop()!
  // The seeded consultant is exposed: its token is the one team-tokens.yaml then holds.
  const consultant = await call('GET', '/team/consultant/token')
  expect(consultant.status).toBe(200)
  memberToken = consultant.body.token
  expect(memberToken).toMatch(/^mtk_/)
})

afterAll(async () => {
  await server?.stop()
  rmSync(parent, {recursive: true, force: true})
})

describe('a team card that is a symbolic link', () => {
  it('GET /team/<id> answers it as a problem card holding nothing of its target (portal token, team-tokens.yaml, /proc/self/environ, a file outside)', async () => {
    for (const id of Object.keys(LINKED)) {
      const card = await call('GET', `/team/${id}`, undefined, false)
      expect(card.status, id).toBe(200)
      expect(card.body).toMatchObject({id, title: null, client: null, model: null, prompt: '', exposure: 'internal', path: `.mesh/team/${id}.md`, problem: expect.stringMatching(/is a symbolic link/)})
      expectNoSecret(card.text)
    }
  })

  it('GET /team lists each one with its problem, never its target', async () => {
    const list = await call('GET', '/team', undefined, false)
    expect(list.status).toBe(200)
    for (const id of Object.keys(LINKED)) {
      expect(list.body.members.find((member: {id: string}) => member.id === id), id).toMatchObject({title: null, problem: expect.stringMatching(/symbolic link/)})
    }
    expectNoSecret(list.text)
  })

  it('exposes no PublicCard for a linked card, even one whose target says external', async () => {
    const card = await call('GET', '/team/outsider/.well-known/agent.json', undefined, false)
    expect(card.status).toBe(404)
    expectNoSecret(card.text)
  })

  it('never reaches a prompt: a turn of the linked member fails, and a teammate’s system prompt holds neither it nor a linked context file', async () => {
    // The member's card is read before the turn is taken: refused as a card that cannot be used.
    for (const member of Object.keys(LINKED)) {
      const sent = await call('POST', '/chat/send', {member, text: 'who are you?'})
      expect(sent.status, member).toBe(409)
      expect(sent.body.error).toMatchObject({code: 'member_malformed', message: expect.stringMatching(/symbolic link/)})
      expectNoSecret(sent.text)
    }
    const sent = await call('POST', '/chat/send', {member: 'architect', text: 'hello'})
    const turn = await finished(sent.body.turn_id)
    expect(turn.status).toBe('done')
    // The script echoed the prompt it received: the system prompt is there, with the sound context and nothing linked.
    expect(turn.text).toContain('PROMPT-FOLLOWS')
    expect(turn.text).toContain('### overview')
    expect(turn.text).not.toContain('### leak')
    expect(turn.text).not.toContain('`outsider`')
    expectNoSecret(turn.text)
  })

  it('says in the debug stream which file was refused and why, never what it points at', async () => {
    const tail = await call('GET', '/debug/tail?tag=files.refused&last=600')
    const lines = tail.body.events.map((event: {msg: string}) => event.msg).join('\n')
    for (const id of Object.keys(LINKED)) expect(lines).toContain(`refused .mesh/team/${id}.md: it is a symbolic link`)
    expect(lines).toContain('refused .mesh/context/leak.md: it is a symbolic link')
    expectNoSecret(tail.text)
    expect(tail.text).not.toContain(LINKED.outsider)
  })
})
