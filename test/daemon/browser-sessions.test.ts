/**
 * The IDE's login codes and browser sessions (issue 22; docs/ide.md,
 * Security): a code opens one session, once, within 60 s; sessions are
 * found by their cookie only; CSRF tokens must match; the caps drop the
 * oldest; clear() (the daemon stops) ends them all. And the perimeter's use
 * of them: the operator is the portal token, or a session cookie from the
 * daemon's own origin with its CSRF token.
 */
import type {IncomingMessage} from 'node:http'
import {describe, expect, it} from 'vitest'
import {clearedSessionCookie, createBrowserSessions, readCookie, sessionCookie, sessionCookieName} from '../../src/daemon/browser-sessions.js'
import {assertOperator, assertSameOrigin} from '../../src/daemon/http/guards.js'
import type {MeshError} from '../../src/lib/errors.js'

/** The error `run` throws; fails the test when it throws none. */
function caught(run: () => void): MeshError {
  try {
    run()
  } catch (error) {
    return error as MeshError
  }
  throw new Error('expected an error')
}

function manualClock(start = 1_000_000) {
  let now = start
  return {clock: () => now, advance: (ms: number) => void (now += ms)}
}

describe('login codes', () => {
  it('open a session once', () => {
    const sessions = createBrowserSessions()
    const {code} = sessions.issueCode()
    const session = sessions.redeem(code)
    expect(session).not.toBeNull()
    expect(sessions.find(session!.id)).toBe(session)
    expect(sessions.redeem(code)).toBeNull()
    expect(sessions.size).toBe(1)
  })

  it('expire after 60 s, and an expired code is gone even if tried again', () => {
    const time = manualClock()
    const sessions = createBrowserSessions({clock: time.clock})
    const fresh = sessions.issueCode()
    expect(fresh.expiresAt).toBe(time.clock() + 60_000)
    time.advance(59_999)
    const stale = sessions.issueCode()
    expect(sessions.redeem(fresh.code)).not.toBeNull()
    time.advance(60_000)
    expect(sessions.redeem(stale.code)).toBeNull()
  })

  it('are not guessable from one another, and an unknown or empty code opens nothing', () => {
    const sessions = createBrowserSessions()
    const a = sessions.issueCode().code
    const b = sessions.issueCode().code
    expect(a).not.toBe(b)
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(sessions.redeem(`${a}x`)).toBeNull()
    expect(sessions.redeem('')).toBeNull()
    expect(sessions.redeem(a.slice(0, -1))).toBeNull()
    // The near misses did not use the real code up.
    expect(sessions.redeem(a)).not.toBeNull()
  })

  it('leave a browser that is logged in its session (its other pages keep their CSRF token), once per code still', () => {
    const sessions = createBrowserSessions()
    const current = sessions.redeem(sessions.issueCode().code)!
    const code = sessions.issueCode().code
    expect(sessions.redeem(code, current)).toBe(current)
    expect(sessions.size).toBe(1)
    expect(sessions.redeem(code, current)).toBeNull()
    // A session that ended is not kept: the code opens a new one.
    sessions.end(current.id)
    const fresh = sessions.redeem(sessions.issueCode().code, current)
    expect(fresh).not.toBe(current)
    expect(sessions.find(fresh!.id)).toBe(fresh)
  })

  it('keep at most maxCodes waiting: the oldest is dropped', () => {
    const sessions = createBrowserSessions({maxCodes: 2})
    const first = sessions.issueCode().code
    const second = sessions.issueCode().code
    const third = sessions.issueCode().code
    expect(sessions.redeem(first)).toBeNull()
    expect(sessions.redeem(second)).not.toBeNull()
    expect(sessions.redeem(third)).not.toBeNull()
  })
})

describe('sessions', () => {
  it('each have their own cookie value and CSRF token, compared exactly', () => {
    const sessions = createBrowserSessions()
    const one = sessions.redeem(sessions.issueCode().code)!
    const two = sessions.redeem(sessions.issueCode().code)!
    expect(one.id).not.toBe(two.id)
    expect(one.csrf).not.toBe(one.id)
    expect(sessions.csrfMatches(one, one.csrf)).toBe(true)
    expect(sessions.csrfMatches(one, two.csrf)).toBe(false)
    expect(sessions.csrfMatches(one, undefined)).toBe(false)
    expect(sessions.csrfMatches(one, one.csrf.slice(1))).toBe(false)
    // The CSRF token is not a way in: only the cookie value finds a session.
    expect(sessions.find(one.csrf)).toBeNull()
    expect(sessions.find(undefined)).toBeNull()
  })

  it('end one at a time, the oldest first past the cap, and all at once when the daemon stops', () => {
    const sessions = createBrowserSessions({maxSessions: 2})
    const open = () => sessions.redeem(sessions.issueCode().code)!
    const [a, b, c] = [open(), open(), open()]
    expect(sessions.find(a.id)).toBeNull()
    expect(sessions.find(b.id)).toBe(b)
    sessions.end(b.id)
    expect(sessions.find(b.id)).toBeNull()
    const code = sessions.issueCode().code
    sessions.clear()
    expect(sessions.find(c.id)).toBeNull()
    expect(sessions.redeem(code)).toBeNull()
  })

  it('of one daemon run are unknown to another (a restarted daemon)', () => {
    const first = createBrowserSessions()
    const session = first.redeem(first.issueCode().code)!
    expect(createBrowserSessions().find(session.id)).toBeNull()
  })
})

describe('the session cookie', () => {
  it('is named after the port, so two daemons keep theirs apart', () => {
    expect(sessionCookieName('127.0.0.1:5570')).toBe('mesh_ide_5570')
    expect(sessionCookieName('localhost:5571')).toBe('mesh_ide_5571')
    expect(sessionCookieName('[::1]:5572')).toBe('mesh_ide_5572')
    expect(sessionCookieName('localhost')).toBe('mesh_ide_80')
  })

  it('is HttpOnly and SameSite=Strict, and cleared with Max-Age=0', () => {
    expect(sessionCookie('mesh_ide_5570', 'abc')).toBe('mesh_ide_5570=abc; HttpOnly; SameSite=Strict; Path=/')
    expect(clearedSessionCookie('mesh_ide_5570')).toMatch(/^mesh_ide_5570=; HttpOnly; SameSite=Strict; Path=\/; Max-Age=0$/)
  })

  it('is read from a Cookie header among others', () => {
    expect(readCookie('a=1; mesh_ide_5570=abc; b=2', 'mesh_ide_5570')).toBe('abc')
    expect(readCookie('mesh_ide_5571=zzz', 'mesh_ide_5570')).toBeUndefined()
    expect(readCookie(['x=1', 'mesh_ide_5570=v=w'], 'mesh_ide_5570')).toBe('v=w')
    expect(readCookie(undefined, 'mesh_ide_5570')).toBeUndefined()
  })
})

describe('the operator check', () => {
  const portalToken = 'mpt_0123456789abcdef0123456789abcdef'
  const setup = () => {
    const sessions = createBrowserSessions()
    const session = sessions.redeem(sessions.issueCode().code)!
    return {sessions, session, guard: {portalToken, sessions}}
  }
  const request = (headers: Record<string, string>) => ({headers: {host: '127.0.0.1:5570', ...headers}}) as unknown as IncomingMessage

  it('takes the portal token, or the session cookie with its CSRF token from the own origin', () => {
    const {session, guard} = setup()
    expect(() => assertOperator(request({authorization: `Bearer ${portalToken}`}), guard, undefined)).not.toThrow()
    const cookie = `mesh_ide_5570=${session.id}`
    expect(() => assertOperator(request({cookie, origin: 'http://127.0.0.1:5570', 'sec-fetch-site': 'same-origin'}), guard, session.csrf)).not.toThrow()
    // Without Origin or Sec-Fetch-Site (not a browser's fetch): the CSRF token decides.
    expect(() => assertOperator(request({cookie}), guard, session.csrf)).not.toThrow()
  })

  it('refuses a session without its CSRF token, from another origin, or after its end', () => {
    const {sessions, session, guard} = setup()
    const cookie = `mesh_ide_5570=${session.id}`
    expect(caught(() => assertOperator(request({cookie}), guard, undefined)).code).toBe('csrf_token_invalid')
    expect(caught(() => assertOperator(request({cookie}), guard, 'forged')).code).toBe('csrf_token_invalid')
    // Another server on this machine is "same site" for cookies, not the same origin.
    expect(caught(() => assertOperator(request({cookie, origin: 'http://127.0.0.1:8080'}), guard, session.csrf)).code).toBe('cross_origin_refused')
    expect(caught(() => assertOperator(request({cookie, 'sec-fetch-site': 'same-site'}), guard, session.csrf)).code).toBe('cross_origin_refused')
    // The cookie of another daemon's port is not this daemon's session.
    expect(caught(() => assertOperator(request({cookie: `mesh_ide_5571=${session.id}`}), guard, session.csrf)).code).toBe('portal_token_required')
    sessions.end(session.id)
    expect(caught(() => assertOperator(request({cookie}), guard, session.csrf)).code).toBe('session_expired')
  })

  it('checks a sent token even beside a good session: a wrong token is refused', () => {
    const {session, guard} = setup()
    const error = caught(() => assertOperator(request({authorization: 'Bearer wrong', cookie: `mesh_ide_5570=${session.id}`}), guard, session.csrf))
    expect(error?.code).toBe('invalid_portal_token')
  })

  it('same origin means the scheme, host and port of the request', () => {
    expect(() => assertSameOrigin(request({origin: 'http://127.0.0.1:5570'}))).not.toThrow()
    expect(() => assertSameOrigin(request({origin: 'http://localhost:5570'}))).toThrow()
    expect(() => assertSameOrigin(request({origin: 'https://127.0.0.1:5570'}))).toThrow()
    expect(() => assertSameOrigin(request({'sec-fetch-site': 'cross-site'}))).toThrow()
  })
})
