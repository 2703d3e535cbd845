/**
 * Who runs jose's SignJWT for the token route. Every heartbeat mints a JWT,
 * and jose signs through WebCrypto with a good deal of JavaScript around the
 * HMAC (claims, base64url, the async job): about 25 µs of the serving
 * thread per token. `inline` signs on the calling thread (tests, embedded
 * use); `worker` signs in one worker thread, the tokens requested in one
 * event-loop turn sent as one message, which leaves about 2 µs per token on
 * the serving thread. Both run the same `signToken` below, so the tokens are
 * byte-identical.
 */
import {webcrypto} from 'node:crypto'
import {createRequire} from 'node:module'
import {pathToFileURL} from 'node:url'
import {Worker} from 'node:worker_threads'
import * as jose from 'jose'
import type {Logger} from '../lib/log.js'

/** The claims of one agent token (spec Authentication 1; `kh` pins the api key). */
export interface TokenClaims {
  sub: string
  kh: string
  iss: string
  iat: number
  exp: number
}

export interface TokenSigner {
  sign(claims: TokenClaims): Promise<string>
  /** Stops the worker (if any); later calls sign inline. */
  close(): Promise<void>
}

export type TokenSignerKind = 'inline' | 'worker'

/**
 * The one way a token is signed. Self-contained (no imports, no closure):
 * the worker receives its source text.
 */
function signToken(joseModule: typeof jose, key: webcrypto.CryptoKey, claims: TokenClaims): Promise<string> {
  return new joseModule.SignJWT({kh: claims.kh})
    .setProtectedHeader({alg: 'HS256', typ: 'JWT'})
    .setSubject(claims.sub)
    .setIssuer(claims.iss)
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .sign(key)
}

const importHmacKey = (secret: Uint8Array) =>
  webcrypto.subtle.importKey('raw', secret, {name: 'HMAC', hash: 'SHA-256'}, false, ['sign', 'verify'])

/** Signs on the calling thread; the key is imported once. */
export function createInlineSigner(secret: Uint8Array): TokenSigner & {key(): Promise<webcrypto.CryptoKey>} {
  let imported: webcrypto.CryptoKey | undefined
  const importing = importHmacKey(secret).then((key) => (imported = key))
  const key = async () => imported ?? (await importing)
  return {
    key,
    async sign(claims) {
      return signToken(jose, await key(), claims)
    },
    async close() {},
  }
}

// The worker's whole program (CommonJS, run with eval so it needs no file of its own
// beside the compiled code): import the key once, answer each batch with its tokens.
const WORKER_SOURCE = `
const {parentPort, workerData} = require('node:worker_threads')
const signToken = ${signToken.toString()}
const ready = Promise.all([
  import(workerData.joseUrl),
  crypto.subtle.importKey('raw', workerData.secret, {name: 'HMAC', hash: 'SHA-256'}, false, ['sign']),
])
parentPort.on('message', async ({id, batch}) => {
  try {
    const [joseModule, key] = await ready
    const tokens = await Promise.all(batch.map((claims) => signToken(joseModule, key, claims)))
    parentPort.postMessage({id, tokens})
  } catch (error) {
    parentPort.postMessage({id, error: String(error && error.message || error)})
  }
})
`

interface Waiting {
  resolve(token: string): void
  reject(error: unknown): void
}

/**
 * Signs in a worker thread, started on the first token. If the worker fails,
 * the tokens it owed are signed inline and so is everything after.
 */
export function createWorkerSigner(secret: Uint8Array, logger: Logger): TokenSigner & {signedInWorker(): number} {
  const inline = createInlineSigner(secret)
  let signedInWorker = 0
  let worker: Worker | undefined
  let broken = false
  let nextId = 0
  let queue: Array<{claims: TokenClaims; waiting: Waiting}> = []
  const inFlight = new Map<number, Array<{claims: TokenClaims; waiting: Waiting}>>()

  const settleInline = (entries: Array<{claims: TokenClaims; waiting: Waiting}>) => {
    for (const {claims, waiting} of entries) inline.sign(claims).then(waiting.resolve, waiting.reject)
  }

  const fail = (reason: string) => {
    if (broken) return
    broken = true
    logger.warn('token signer worker stopped; signing on the main thread', {reason})
    for (const entries of inFlight.values()) settleInline(entries)
    inFlight.clear()
    void worker?.terminate()
    worker = undefined
  }

  const start = () => {
    const joseUrl = pathToFileURL(createRequire(import.meta.url).resolve('jose')).href
    const started = new Worker(WORKER_SOURCE, {eval: true, workerData: {secret: Uint8Array.from(secret), joseUrl}})
    // The worker never keeps the process alive; close() ends it.
    started.unref()
    started.on('message', (reply: {id: number; tokens?: string[]; error?: string}) => {
      const entries = inFlight.get(reply.id)
      if (!entries) return
      inFlight.delete(reply.id)
      if (reply.tokens) {
        signedInWorker += reply.tokens.length
        entries.forEach(({waiting}, i) => waiting.resolve(reply.tokens![i]))
      } else {
        logger.warn('token signer worker refused a batch; signed on the main thread', {reason: reply.error})
        settleInline(entries)
      }
    })
    started.on('error', (error) => fail(String(error)))
    started.on('exit', (code) => fail(`exited with code ${code}`))
    return started
  }

  const flush = () => {
    const batch = queue
    queue = []
    if (batch.length === 0) return
    if (broken) return settleInline(batch)
    worker ??= start()
    const id = nextId++
    inFlight.set(id, batch)
    worker.postMessage({id, batch: batch.map(({claims}) => claims)})
  }

  return {
    /** How many tokens the worker signed (the rest, if any, were signed inline). */
    signedInWorker: () => signedInWorker,
    sign(claims) {
      if (broken) return inline.sign(claims)
      return new Promise<string>((resolve, reject) => {
        if (queue.push({claims, waiting: {resolve, reject}}) === 1) setImmediate(flush)
      })
    },
    async close() {
      flush()
      const entries = [...inFlight.values()].flat()
      inFlight.clear()
      broken = true
      settleInline(entries)
      const stopping = worker
      worker = undefined
      if (stopping) {
        stopping.removeAllListeners('exit')
        await stopping.terminate()
      }
    },
  }
}
