/**
 * Member tokens (spec: Authentication — ask/poll surface of an external
 * member): one non-expiring `mtk_` token per exposed member, kept ONLY in
 * `.mesh/credentials/team-tokens.yaml` (mode 0600; never in the card, never
 * logged, never snapshotted). Exposing creates it, rotating replaces it at
 * once, setting the member back to `internal` destroys it. docs/daemon.md, Team.
 */
import {randomBytes, timingSafeEqual} from 'node:crypto'
import {chmod} from 'node:fs/promises'
import {parse, stringify} from 'yaml'
import {isPathRefused, writeContainedFile} from '../../lib/contained-files.js'
import type {DaemonContext} from '../context.js'
import {readProjectText} from '../project-files.js'

export const TEAM_TOKENS_FILE = 'credentials/team-tokens.yaml'
const HEADER = '# Member tokens of exposed team members (mesh daemon). Secrets: never commit, never share this file.\n'

/** `mtk_` + 256 random bits, base64url: recognisable in a leak scan, unguessable. */
const newToken = () => `mtk_${randomBytes(32).toString('base64url')}`

export interface MemberTokens {
  /** The member's token, or null when it has none. */
  get(id: string): Promise<string | null>
  /** The member's token, created when it has none (exposure external). */
  ensure(id: string): Promise<string>
  /** A new token; the previous one stops working at once. */
  rotate(id: string): Promise<string>
  /** Destroys the token (exposure internal, or the member deleted); true when there was one. */
  revoke(id: string): Promise<boolean>
  /** Constant-time check of a presented token against the member's. */
  verify(id: string, presented: string | undefined): Promise<boolean>
}

const cache = new WeakMap<DaemonContext, MemberTokens>()

/** The one token store of a daemon (writes are serialised so two requests never lose each other's token). */
export function memberTokens(context: DaemonContext): MemberTokens {
  const known = cache.get(context)
  if (known) return known
  const path = context.meshPath(...TEAM_TOKENS_FILE.split('/'))
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }
  const load = async (): Promise<Record<string, string>> => {
    // Never through a link (issue 18): a linked tokens file holds no usable token (said in the debug stream), as a broken one.
    const text = await readProjectText(context, TEAM_TOKENS_FILE).catch((error: unknown) => (isPathRefused(error) ? '' : Promise.reject(error)))
    let data: unknown
    try {
      data = parse(text ?? '')
    } catch {
      // A broken file holds no usable token: every ask is refused until a rotate rewrites it.
      context.debug.log({lvl: 'warn', tag: 'team.tokens', msg: `${TEAM_TOKENS_FILE} is not valid YAML; member tokens are unusable until one is rotated`})
      return {}
    }
    const tokens: Record<string, string> = {}
    if (data && typeof data === 'object' && !Array.isArray(data)) for (const [id, token] of Object.entries(data)) if (typeof token === 'string') tokens[id] = token
    return tokens
  }
  const save = async (tokens: Record<string, string>) => {
    const body = Object.keys(tokens).length === 0 ? '' : stringify(tokens, {lineWidth: 0})
    // A linked credentials/ is refused; a link at the file's name is replaced by the rename, never written through.
    await writeContainedFile(context.meshPath(), TEAM_TOKENS_FILE, HEADER + body, {mode: 0o600, folderMode: 0o700})
    // The process umask may widen nothing but may narrow; the mode must be exactly owner-only.
    await chmod(path, 0o600)
  }
  const store: MemberTokens = {
    async get(id) {
      return (await load())[id] ?? null
    },
    ensure: (id) =>
      serial(async () => {
        const tokens = await load()
        if (tokens[id]) return tokens[id]
        tokens[id] = newToken()
        await save(tokens)
        context.debug.log({lvl: 'info', tag: 'team.tokens', msg: `member token created for ${id}`})
        return tokens[id]
      }),
    rotate: (id) =>
      serial(async () => {
        const tokens = await load()
        tokens[id] = newToken()
        await save(tokens)
        context.debug.log({lvl: 'info', tag: 'team.tokens', msg: `member token rotated for ${id}`})
        return tokens[id]
      }),
    revoke: (id) =>
      serial(async () => {
        const tokens = await load()
        if (!(id in tokens)) return false
        delete tokens[id]
        await save(tokens)
        context.debug.log({lvl: 'info', tag: 'team.tokens', msg: `member token revoked for ${id}`})
        return true
      }),
    async verify(id, presented) {
      const token = await store.get(id)
      if (!token || !presented) return false
      const a = Buffer.from(presented)
      const b = Buffer.from(token)
      return a.length === b.length && timingSafeEqual(a, b)
    },
  }
  cache.set(context, store)
  return store
}

/** For the ask/poll routes: whether `presented` is the member's current token (constant-time). */
export const verifyMemberToken = (context: DaemonContext, id: string, presented: string | undefined) => memberTokens(context).verify(id, presented)
