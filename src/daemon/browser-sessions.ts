/**
 * The IDE's browser sessions (docs/ide.md, Security; issue 22). `mesh open`
 * trades the portal token for a login code — random, good once, for 60 s —
 * and the browser trades the code at `/login` for a session: an `HttpOnly`,
 * `SameSite=Strict` cookie naming it, and a CSRF token the page sends with
 * every call (`X-Mesh-CSRF`). The portal token never reaches the page.
 *
 * Everything lives in this process's memory: a stopped daemon's sessions die
 * with it, and a daemon started again knows none of the old cookies. Codes
 * and session ids are kept only as SHA-256 digests, so a lookup's timing
 * says nothing about a stored value; CSRF tokens compare in constant time.
 */
import {createHash, randomBytes, timingSafeEqual} from 'node:crypto'
import {LOGIN_CODE_TTL_MS, MAX_BROWSER_SESSIONS, MAX_LOGIN_CODES, SESSION_COOKIE_PREFIX} from './constants.js'

export interface BrowserSession {
  /** The cookie's value (never logged). */
  id: string
  /** The page's CSRF token: in the page, never in a cookie. */
  csrf: string
  createdAt: number
}

export interface LoginCode {
  code: string
  /** Epoch milliseconds. */
  expiresAt: number
}

export interface BrowserSessions {
  /** A new one-time login code. */
  issueCode(): LoginCode
  /**
   * The session a code opens, or null for a code that is unknown, used or
   * expired; a code is used by this call, whatever follows. A browser that
   * already has a live session (`current`) keeps it: its other open pages
   * hold that session's CSRF token.
   */
  redeem(code: string, current?: BrowserSession | null): BrowserSession | null
  /** The live session with this cookie value, or null. */
  find(id: string | undefined): BrowserSession | null
  /** Whether `presented` is the session's CSRF token. */
  csrfMatches(session: BrowserSession, presented: string | undefined): boolean
  end(id: string): void
  /** Ends every session and forgets every code (the daemon stops). */
  clear(): void
  readonly size: number
}

export interface BrowserSessionsOptions {
  clock?: () => number
  codeTtlMs?: number
  maxCodes?: number
  maxSessions?: number
}

/** 256 random bits, base64url: safe in a URL, a cookie and a header as they are. */
const secret = () => randomBytes(32).toString('base64url')
const digest = (value: string) => createHash('sha256').update(value).digest('base64url')

export function createBrowserSessions(options: BrowserSessionsOptions = {}): BrowserSessions {
  const clock = options.clock ?? Date.now
  const codeTtlMs = options.codeTtlMs ?? LOGIN_CODE_TTL_MS
  const maxCodes = options.maxCodes ?? MAX_LOGIN_CODES
  const maxSessions = options.maxSessions ?? MAX_BROWSER_SESSIONS
  // Maps keep insertion order: the first key is the oldest, dropped when a cap is reached.
  const codes = new Map<string, number>()
  const sessions = new Map<string, BrowserSession>()

  const dropExpiredCodes = (now: number) => {
    for (const [key, expiresAt] of codes) if (expiresAt <= now) codes.delete(key)
  }

  return {
    issueCode() {
      const now = clock()
      dropExpiredCodes(now)
      while (codes.size >= maxCodes) codes.delete(codes.keys().next().value!)
      const code = secret()
      const expiresAt = now + codeTtlMs
      codes.set(digest(code), expiresAt)
      return {code, expiresAt}
    },
    redeem(code, current) {
      if (typeof code !== 'string' || code.length === 0) return null
      const key = digest(code)
      const expiresAt = codes.get(key)
      codes.delete(key)
      if (expiresAt === undefined || expiresAt <= clock()) return null
      if (current && sessions.get(digest(current.id)) === current) return current
      while (sessions.size >= maxSessions) sessions.delete(sessions.keys().next().value!)
      const session = {id: secret(), csrf: secret(), createdAt: clock()}
      sessions.set(digest(session.id), session)
      return session
    },
    find: (id) => (id ? (sessions.get(digest(id)) ?? null) : null),
    csrfMatches(session, presented) {
      if (typeof presented !== 'string') return false
      const a = Buffer.from(presented)
      const b = Buffer.from(session.csrf)
      return a.length === b.length && timingSafeEqual(a, b)
    },
    end: (id) => void sessions.delete(digest(id)),
    clear() {
      codes.clear()
      sessions.clear()
    },
    get size() {
      return sessions.size
    },
  }
}

/**
 * The session cookie's name for a request's `Host`: `mesh_ide_<port>`
 * (`mesh_ide_80` without one). Browsers send a host's cookies to all its
 * ports, so two daemons on one machine each need their own name.
 */
export function sessionCookieName(host: string | undefined): string {
  const port = /:(\d{1,5})$/.exec(host ?? '')?.[1] ?? '80'
  return `${SESSION_COOKIE_PREFIX}${port}`
}

/**
 * One cookie's value from a `Cookie` header (`a=1; b=2`, RFC 6265 §4.2.1).
 * By hand rather than a package: the daemon reads only its own cookie,
 * whose value is base64url (no quotes, no escapes to undo).
 */
export function readCookie(header: string | string[] | undefined, name: string): string | undefined {
  for (const line of Array.isArray(header) ? header : [header ?? '']) {
    for (const pair of line.split(';')) {
      const at = pair.indexOf('=')
      if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim()
    }
  }
  return undefined
}

/**
 * The `Set-Cookie` value of a session: `HttpOnly` (no script reads it),
 * `SameSite=Strict` (no other site's request carries it), `Path=/`, and no
 * `Max-Age`: a browser keeps it until it closes, the daemon until it stops.
 * Not `Secure`: the daemon speaks plain HTTP on loopback.
 */
export const sessionCookie = (name: string, id: string) => `${name}=${id}; HttpOnly; SameSite=Strict; Path=/`

/** The `Set-Cookie` value that removes the session cookie (logout, an unknown session). */
export const clearedSessionCookie = (name: string) => `${name}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`
