/**
 * Issue 22, deliverable 1, over plain HTTP: the IDE is served to a browser
 * at `/` (JSON clients keep their 404), locked to the operator — a login
 * code from the portal token, good once and for 60 s, traded for an
 * HttpOnly SameSite=Strict cookie; every call with the cookie needs the
 * session's CSRF token and the daemon's own origin, Host and Origin stay
 * loopback-only; the sessions die with the daemon.
 */
import {afterEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {startHarness, type DaemonHarness} from '../harness.js'
import {makeRepo} from '../../standard/fixtures.js'

let harness: DaemonHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

interface Login {
  cookie: string
  csrf: string
  setCookie: string
}

/** A login as a browser does it: a code from the portal token, then /login; the cookie and the page's CSRF token. */
async function login(daemon: DaemonHarness): Promise<Login> {
  const issued = await daemon.call('POST', '/ide/login-code', {auth: true})
  expect(issued.status).toBe(201)
  const path = new URL(issued.body.url).pathname + new URL(issued.body.url).search
  const answer = await daemon.call('GET', path, {headers: {accept: BROWSER_ACCEPT}})
  expect(answer.status).toBe(303)
  const setCookie = String(answer.headers['set-cookie'])
  const cookie = setCookie.split(';')[0]
  const page = await daemon.call('GET', '/', {headers: {accept: BROWSER_ACCEPT, cookie}})
  const csrf = /<meta name="mesh-csrf" content="([^"]+)">/.exec(page.body)?.[1]
  expect(csrf).toBeTruthy()
  return {cookie, csrf: csrf!, setCookie}
}

const pageHeaders = (session: Login, extra: Record<string, string> = {}) => ({cookie: session.cookie, 'x-mesh-csrf': session.csrf, ...extra})

describe('the IDE at /', () => {
  it('answers a browser with a page and JSON clients as before', async () => {
    harness = await startHarness()
    const json = await harness.call('GET', '/', {headers: {accept: 'application/json'}})
    expect(json.status).toBe(404)
    expect(json.body).toEqual({error: {code: 'not_found', message: 'No route for GET /'}})
    // curl sends */*: still the API's answer.
    expect((await harness.call('GET', '/', {headers: {accept: '*/*'}})).body.error.code).toBe('not_found')
    const locked = await harness.call('GET', '/', {headers: {accept: BROWSER_ACCEPT}})
    expect(locked.status).toBe(401)
    expect(locked.headers['content-type']).toMatch(/^text\/html/)
    expect(locked.headers['content-security-policy']).toContain("script-src 'self'")
    expect(locked.body).toContain('mesh open')
    expect(locked.body).not.toMatch(/<script/)
  })

  it('logs a browser in once per code, with an HttpOnly SameSite=Strict cookie, and the page never holds the portal token', async () => {
    harness = await startHarness()
    const issued = await harness.call('POST', '/ide/login-code', {auth: true})
    expect(issued.body.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${harness.running.port}/login\\?code=[A-Za-z0-9_-]{43}$`))
    const path = new URL(issued.body.url).pathname + new URL(issued.body.url).search
    const first = await harness.call('GET', path, {headers: {accept: BROWSER_ACCEPT}})
    expect(first.status).toBe(303)
    expect(first.headers.location).toBe('/')
    const setCookie = String(first.headers['set-cookie'])
    expect(setCookie).toMatch(new RegExp(`^mesh_ide_${harness.running.port}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/$`))
    const again = await harness.call('GET', path, {headers: {accept: BROWSER_ACCEPT}})
    expect(again.status).toBe(401)
    expect(again.headers['set-cookie']).toBeUndefined()
    expect(again.body).toContain('does not work')

    const cookie = setCookie.split(';')[0]
    const page = await harness.call('GET', '/', {headers: {accept: BROWSER_ACCEPT, cookie}})
    expect(page.status).toBe(200)
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.body).toContain('<meta name="mesh-csrf"')
    expect(page.body).not.toContain(harness.token)
    // The debug stream says who logged in, never with what.
    const tail = await harness.call('GET', '/debug/tail?tag=ide.login', {auth: true})
    expect(tail.body.events.map((event: {msg: string}) => event.msg)).toEqual(expect.arrayContaining(['a browser logged in to the IDE', expect.stringMatching(/refused/)]))
    expect(JSON.stringify(tail.body)).not.toContain(new URL(issued.body.url).searchParams.get('code'))
  })

  it('mints login codes only for the portal token itself', async () => {
    harness = await startHarness()
    expect((await harness.call('POST', '/ide/login-code')).body.error.code).toBe('portal_token_required')
    const session = await login(harness)
    const fromPage = await harness.call('POST', '/ide/login-code', {headers: pageHeaders(session)})
    expect(fromPage.status).toBe(401)
    expect(fromPage.body.error.code).toBe('portal_token_required')
  })

  it('lets a code expire after 60 seconds', async () => {
    let offset = 0
    harness = await startHarness({clock: () => Date.now() + offset})
    const issued = await harness.call('POST', '/ide/login-code', {auth: true})
    expect(Date.parse(issued.body.expires_at) - Date.now()).toBeGreaterThan(55_000)
    offset = 60_001
    const path = new URL(issued.body.url).pathname + new URL(issued.body.url).search
    const late = await harness.call('GET', path, {headers: {accept: BROWSER_ACCEPT}})
    expect(late.status).toBe(401)
    expect(late.headers['set-cookie']).toBeUndefined()
  })
})

describe('calls with the session', () => {
  it('write with the CSRF token from the own origin; without it, from another origin or with a forged Host they are refused', async () => {
    harness = await startHarness()
    const session = await login(harness)
    const own = `http://127.0.0.1:${harness.running.port}`
    const move = (status: string, headers: Record<string, string>) => harness!.call('POST', '/tasks/API1/transition', {headers, body: JSON.stringify({status})})

    const moved = await move('active', pageHeaders(session, {origin: own, 'sec-fetch-site': 'same-origin'}))
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({id: 'API1', from: 'next', to: 'active', changed: true})

    const refusals = [
      [{cookie: session.cookie}, 403, 'csrf_token_invalid'],
      [pageHeaders(session, {'x-mesh-csrf': 'forged'}), 403, 'csrf_token_invalid'],
      // Another server on this machine: loopback, "same site" for the cookie, but not the daemon's page.
      [pageHeaders(session, {origin: 'http://127.0.0.1:8080', 'sec-fetch-site': 'same-site'}), 403, 'cross_origin_refused'],
      [pageHeaders(session, {origin: 'https://evil.example'}), 403, 'origin_not_loopback'],
      [pageHeaders(session, {host: 'evil.example'}), 403, 'host_not_loopback'],
      [{}, 401, 'portal_token_required'],
    ] as const
    for (const [headers, status, code] of refusals) {
      const refused = await move('done', headers)
      expect([refused.status, refused.body.error?.code], JSON.stringify(headers)).toEqual([status, code])
    }
    expect(harness.repo.read('.mesh/modules/api/tasks/API1-first-task.md')).toContain('status: active')
  })

  it('read a task as the board opens it, escaped', async () => {
    harness = await startHarness({repo: makeRepo({'.mesh/modules/api/tasks/API2-evil.md': '---\nid: API2\ntitle: "<script>x()</script>"\nstatus: next\ncategory: api\n---\n\n[click](javascript:alert(1)) <img src=x onerror=y()>\n'})})
    const session = await login(harness)
    const view = await harness.call('GET', '/ide/tasks/API2', {headers: pageHeaders(session)})
    expect(view.status).toBe(200)
    expect(view.body).toContain('&lt;script&gt;x()&lt;/script&gt;')
    expect(view.body).not.toMatch(/<script|<img|href="javascript/i)
    expect((await harness.call('GET', '/ide/tasks/API9', {headers: pageHeaders(session)})).body.error.code).toBe('task_not_found')
    expect((await harness.call('GET', '/ide/tasks/API2')).status).toBe(401)
  })

  it('serve the Team view at /ide/team to the session only', async () => {
    harness = await startHarness()
    const locked = await harness.call('GET', '/ide/team', {headers: {accept: BROWSER_ACCEPT}})
    expect(locked.status).toBe(401)
    expect(locked.body).toContain('mesh open')
    const session = await login(harness)
    const page = await harness.call('GET', '/ide/team', {headers: {accept: BROWSER_ACCEPT, cookie: session.cookie}})
    expect(page.status).toBe(200)
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.body).toContain('<a href="/ide/team" aria-current="page">Team</a>')
    expect(page.body).toMatch(/<link rel="stylesheet" href="\/ide\/assets\/team\.[0-9a-f]+\.css">/)
    expect(page.body.match(/<script defer src="\/ide\/assets\/([a-z-]+)\./g)?.map((tag: string) => tag.replace(/.*assets\/|\.$/g, ''))).toEqual(['ide', 'team-stream', 'team-queue', 'team'])
    expect(page.body).not.toContain(harness.token)
  })

  it('open /events with the cookie and the CSRF token from the own origin only', async () => {
    harness = await startHarness()
    const session = await login(harness)
    const own = `http://127.0.0.1:${harness.running.port}`
    const open = (query: string, headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(`ws://127.0.0.1:${harness!.running.port}/events${query}`, {headers})
        socket.on('open', () => {
          socket.close()
          resolve(101)
        })
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0))
        socket.on('error', () => resolve(-1))
      })
    expect(await open(`?csrf=${session.csrf}`, {cookie: session.cookie, origin: own})).toBe(101)
    expect(await open('', {cookie: session.cookie, origin: own})).toBe(403)
    expect(await open(`?csrf=${session.csrf}`, {cookie: session.cookie, origin: 'http://127.0.0.1:8080'})).toBe(403)
    expect(await open(`?csrf=${session.csrf}`, {cookie: session.cookie, origin: own, host: 'rebind.example'})).toBe(403)
  })

  it('end at logout, and with the daemon: a daemon started again knows none of the old sessions', async () => {
    harness = await startHarness()
    const first = await login(harness)
    const second = await login(harness)
    const out = await harness.call('POST', '/ide/logout', {headers: pageHeaders(first)})
    expect(out.status).toBe(200)
    expect(String(out.headers['set-cookie'])).toMatch(/Max-Age=0/)
    expect((await harness.call('GET', '/ide/session', {headers: pageHeaders(first)})).body.error.code).toBe('session_expired')
    expect((await harness.call('GET', '/ide/session', {headers: pageHeaders(second)})).status).toBe(200)

    const {repo, running} = harness
    const port = running.port
    await running.stop()
    harness = await startHarness({repo, port})
    expect(harness.running.port).toBe(port)
    const stale = await harness.call('GET', '/ide/session', {headers: pageHeaders(second)})
    expect([stale.status, stale.body.error.code]).toEqual([401, 'session_expired'])
    expect((await harness.call('GET', '/', {headers: {accept: BROWSER_ACCEPT, cookie: second.cookie}})).status).toBe(401)
  })
})

describe('GET /tasks', () => {
  it('lists the active tasks in dispatch order with tags, dispatchability and what blocks them', async () => {
    harness = await startHarness({
      repo: makeRepo({
        '.mesh/modules/api/tasks/API2-second.md': '---\nid: API2\ntitle: Second\nstatus: next\npriority: high\ncategory: api\ntags: [ui]\ndepends_on: [API1, API0]\n---\n',
        '.mesh/modules/api/tasks/API3-third.md': '---\nid: API3\ntitle: Third\nstatus: blocked\npriority: low\ncategory: api\ndepends_on: [API9]\n---\n',
      }),
    })
    const board = await harness.call('GET', '/tasks')
    expect(board.status).toBe(200)
    expect(board.body.tasks.map((task: {id: string}) => task.id)).toEqual(['API2', 'API1', 'API3'])
    const [second, first, third] = board.body.tasks
    // API0 is archived and done: it counts; API1 is next, not done.
    expect(second).toMatchObject({status: 'next', tags: ['ui'], dispatchable: false, blocked_by: ['API1']})
    expect(first).toMatchObject({id: 'API1', dispatchable: true, blocked_by: []})
    expect(third).toMatchObject({dispatchable: false, blocked_by: ['API9']})
    expect(second).not.toHaveProperty('archived')
    // `?ids=`: only those, worked out against the whole board (the page's patch after an event).
    const some = await harness.call('GET', '/tasks?ids=API3,API2,API0,API9')
    expect(some.body.tasks).toEqual([second, third])
  })
})
