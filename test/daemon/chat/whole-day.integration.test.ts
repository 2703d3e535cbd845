/**
 * A whole day of a team, through the real binary and HTTP only (issue bar):
 * a task is created, an outside ask cannot close it (issue 19) but the
 * operator's turn completes it with its Resolution, a queued item is dispatched when its conversation goes idle,
 * delegation chains are refused on a cycle, on depth and on fan-out, and a
 * revoked member's outstanding ask answers 403 — each checked through HTTP
 * answers, `/events` and the files on disk.
 */
import {readFileSync, readdirSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {json, runCli, spawnCli, type SpawnedCli} from '../../support/cli.js'
import {makeRepo, type FixtureRepo} from '../../standard/fixtures.js'
import {marker, writeScriptTeam} from './script-team.js'

const WAIT_MS = 30_000
const PROJECT = {'x-mesh-project': 'demo'}

let repo: FixtureRepo
let daemon: SpawnedCli
let url: string
let portal: string
let socket: WebSocket
const events: Array<{type: string; ts?: string; data: any}> = []
const waiters = new Set<() => void>()

function waitForEvent(match: (event: {type: string; data: any}) => boolean, what: string) {
  return new Promise<{type: string; data: any}>((resolve, reject) => {
    const check = () => {
      const found = events.find(match)
      if (!found) return false
      waiters.delete(check)
      clearTimeout(timer)
      resolve(found)
      return true
    }
    const timer = setTimeout(() => {
      waiters.delete(check)
      reject(new Error(`no ${what} within ${WAIT_MS} ms; saw ${events.map((event) => event.type).join(', ')}`))
    }, WAIT_MS)
    if (!check()) waiters.add(check)
  })
}

async function http(method: string, path: string, options: {body?: unknown; token?: string; headers?: Record<string, string>} = {}) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {'content-type': 'application/json', authorization: `Bearer ${options.token ?? portal}`, ...options.headers},
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  return {status: response.status, body: (await response.json()) as any}
}

const mesh = (args: string[]) => runCli([...args, '--dir', repo.root, '--json'])
const delegate = (member: string, brief: string) => marker('delegate', {member, brief})
const done = (task?: string) => marker('report', {status: 'done', summary: 'done', ...(task ? {task} : {})})

beforeAll(async () => {
  repo = makeRepo()
  const fanMembers = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6']
  const deepMembers = ['d1', 'd2', 'd3', 'd4', 'd5']
  writeScriptTeam(repo.root, [
    {
      id: 'architect',
      replies: [
        {when: '^first item', say: 'one\ntwo\nthree', delay_ms: 150},
        {when: '^cycle', say: `Handing over.\n${delegate('developer', 'cycle back')}`},
        {when: '^deep', say: `Going deep.\n${delegate('d1', 'deep')}`},
        {when: '^fan', say: ['Fanning out.', ...fanMembers.map((id) => delegate(id, 'wait for it'))].join('\n')},
      ],
      default: {say: 'noted'},
    },
    {
      id: 'developer',
      exposure: 'external',
      replies: [
        {when: 'cycle back', say: `Back to you.\n${delegate('architect', 'your turn')}`},
        {when: '#API2', say: `→ working on #launch · #API2\nImplemented the second task.\n${done()}`},
      ],
      default: {say: done()},
    },
    {id: 'consultant', exposure: 'external', replies: [{when: 'slow', say: 'thinking', hang: true}], default: {say: 'advice'}},
    ...deepMembers.map((id, i) => ({id, replies: [{when: '^### From|deep', say: i + 1 < deepMembers.length ? `Deeper.\n${delegate(deepMembers[i + 1], 'deep')}` : done()}], default: {say: done()}})),
    ...fanMembers.map((id) => ({id, replies: [], default: {say: `waited\n${done()}`, delay_ms: 200}})),
  ])
  daemon = spawnCli(['serve', '--port', '0', '--json', '--turn-timeout', '120'], {cwd: repo.root, env: {MESH_LOG_LEVEL: 'warn'}})
  url = JSON.parse(await daemon.waitFor((line) => line.includes('"listening"'))).url
  portal = readFileSync(join(repo.root, '.mesh', 'credentials', 'portal-token'), 'utf8').trim()
  socket = new WebSocket(`${url.replace('http', 'ws')}/events`, {headers: {authorization: `Bearer ${portal}`}})
  socket.on('message', (data) => {
    events.push(JSON.parse(String(data)))
    for (const check of [...waiters]) check()
  })
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
}, 60_000)

afterAll(async () => {
  socket?.close()
  expect(await daemon?.stop()).toBe(0)
  repo?.cleanup()
})

describe('a whole day of the team, through the binary and HTTP', () => {
  it('creates a task; an asked member answers but cannot close it (issue 19), the operator\'s turn completes it with its Resolution', async () => {
    const created = json(await mesh(['task', 'create', '-m', 'api', '-t', 'Second task', '--status', 'next', '--initiative', 'launch']))
    expect(created.id).toBe('API2')
    const exposed = await mesh(['team', 'expose', 'developer'])
    expect(exposed.code).toBe(0)
    const token = json(exposed).token as string

    const asked = await http('POST', '/team/developer/ask', {token, headers: PROJECT, body: {text: 'Please do #API2 today'}})
    expect(asked.status).toBe(202)
    let state: any
    do state = (await http('GET', `/team/requests/${asked.body.request_id}`, {token, headers: PROJECT})).body
    while (state.status === 'queued' || state.status === 'running')
    expect(state).toMatchObject({status: 'done', conv: asked.body.conv})
    expect(state.result_text).toContain('Implemented the second task.')
    expect(state.result_text).not.toContain('mesh-report')
    // The poll says done once every final hook ran (resolution first): the asker's report resolved nothing.
    expect(readFileSync(join(repo.root, created.path), 'utf8')).toMatch(/^status: next$/m)
    expect(events.some((event) => event.type === 'task.completed')).toBe(false)

    const operator = json(await mesh(['ask', 'developer', '--conv', 'c-api2', 'Please do #API2 today']))
    expect(operator).toMatchObject({status: 'done', conv: 'c-api2'})
    const completed = await waitForEvent((event) => event.type === 'task.completed' && event.data.task === 'API2', 'task.completed for API2')
    expect(completed.data).toMatchObject({conv: 'c-api2', member: 'developer'})
    const file = readFileSync(join(repo.root, created.path), 'utf8')
    expect(file).toMatch(/^status: done$/m)
    expect(file).toMatch(/^completed_at: .*Z$/m)
    expect(file).toMatch(/^resolved_by: developer$/m)
    expect(file).toMatch(/^resolved_by_conv: c-api2$/m)
    expect(file).toMatch(/## Resolution\n\n→ working on #launch · #API2\nImplemented the second task\./)
  })

  it('dispatches the queued head item once the conversation goes idle', async () => {
    const first = await http('POST', '/chat/send', {body: {conv: 'c-day', text: 'first item'}})
    expect(first.status).toBe(202)
    const queued = await http('POST', '/chat/conv/c-day/queue', {body: {text: 'second item'}})
    expect(queued.status).toBe(201)
    const sent = await waitForEvent((event) => event.type === 'queue.item.sent' && event.data.conv === 'c-day', 'queue.item.sent on c-day')
    expect(sent.data.item).toMatchObject({id: queued.body.id, status: 'sent'})
    const firstFinal = events.findIndex((event) => event.type === 'chat.assistant.final' && event.data.turn_id === first.body.turn_id)
    expect(firstFinal).toBeGreaterThan(-1)
    expect(firstFinal).toBeLessThan(events.indexOf(sent))
    const second = await waitForEvent((event) => event.type === 'chat.user' && event.data.conv === 'c-day' && event.data.text === 'second item', 'the queued item as a turn')
    expect(second.data.origin).toBe('queue')
    await waitForEvent((event) => event.type === 'chat.assistant.final' && event.data.turn_id === second.data.turn_id, 'the final of the queued turn')
    // A sent item leaves its queue file (the timeline keeps its turn).
    const file = JSON.parse(readFileSync(join(repo.root, '.mesh', 'queues', 'c-day.json'), 'utf8'))
    expect(file.items).toEqual([])
  })

  it('refuses a delegation chain on a cycle, on depth and on fan-out', async () => {
    for (const conv of ['c-cycle', 'c-deep', 'c-fan']) expect((await http('POST', '/chat/send', {body: {conv, text: conv.slice(2)}})).status).toBe(202)
    const cycle = await waitForEvent((event) => event.type === 'delegation.refused' && event.data.code === 'delegation-cycle', 'delegation-cycle')
    expect(cycle.data).toMatchObject({from_member: 'developer', member: 'architect', chain: ['architect', 'developer']})
    const depth = await waitForEvent((event) => event.type === 'delegation.refused' && event.data.code === 'delegation-max-depth', 'delegation-max-depth')
    expect(depth.data).toMatchObject({from_member: 'd4', member: 'd5'})
    const fan = await waitForEvent((event) => event.type === 'delegation.refused' && event.data.code === 'delegation-fan-out', 'delegation-fan-out')
    expect(fan.data).toMatchObject({from_conv: 'c-fan', member: 'f6'})
    const opened = events.filter((event) => event.type === 'delegation.opened' && event.data.requester?.conv === 'c-fan')
    expect(opened.map((event) => event.data.member).sort()).toEqual(['f1', 'f2', 'f3', 'f4', 'f5'])
    // Each refusal is told back to the agent that asked, as a wake in its own conversation.
    await waitForEvent((event) => event.type === 'chat.user' && event.data.conv === 'c-fan' && /Delegation refused: delegation-fan-out/.test(event.data.text), 'the refusal told to the architect')
    // Events go out as they happen; the timeline's file writes follow in batches.
    const refusalsOnDisk = () =>
      readdirSync(join(repo.root, '.mesh', 'timeline'))
        .flatMap((name) => readFileSync(join(repo.root, '.mesh', 'timeline', name), 'utf8').trim().split('\n'))
        .filter((line) => line.includes('"type":"delegation.refused"'))
        .map((line) => JSON.parse(line).code)
    await expect.poll(refusalsOnDisk, {timeout: WAIT_MS}).toEqual(expect.arrayContaining(['delegation-cycle', 'delegation-max-depth', 'delegation-fan-out']))
  })

  it("answers 403 to a revoked member's outstanding ask", async () => {
    const token = json(await mesh(['team', 'expose', 'consultant'])).token as string
    const asked = await http('POST', '/team/consultant/ask', {token, headers: PROJECT, body: {text: 'slow question'}})
    expect(asked.status).toBe(202)
    await waitForEvent((event) => event.type === 'chat.turn.started' && event.data.conv === asked.body.conv, 'the consultant turn')
    expect((await http('GET', `/team/requests/${asked.body.request_id}`, {token, headers: PROJECT})).body.status).toBe('running')
    expect((await mesh(['team', 'revoke', 'consultant'])).code).toBe(0)
    const refused = await http('GET', `/team/requests/${asked.body.request_id}`, {token, headers: PROJECT})
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe('member_not_exposed')
  })
})
