import {randomBytes} from 'node:crypto'
import {describe, expect, it} from 'vitest'
import {silentLogger, type Logger} from '../../src/lib/log.js'
import {createInlineSigner, createWorkerSigner} from '../../src/registry/token-signer.js'
import {createTokenIssuer} from '../../src/registry/tokens.js'

/** A logger that keeps warnings: a worker that failed and fell back to inline signing says so. */
function recording() {
  const warnings: string[] = []
  const logger: Logger = {...silentLogger, warn: (message) => void warnings.push(message)}
  return {logger, warnings}
}

const claims = (i: number) => ({sub: `agent-${i}`, kh: 'k'.repeat(16), iss: 'mesh-registry', iat: 1_780_000_000 + i, exp: 1_780_086_400 + i})

describe('token signers', () => {
  it('sign the same bytes in a worker thread as inline, many at once', async () => {
    const secret = randomBytes(32)
    const inline = createInlineSigner(secret)
    const {logger, warnings} = recording()
    const worker = createWorkerSigner(secret, logger)
    try {
      const fromWorker = await Promise.all(Array.from({length: 200}, (_, i) => worker.sign(claims(i))))
      const fromInline = await Promise.all(Array.from({length: 200}, (_, i) => inline.sign(claims(i))))
      expect(fromWorker).toEqual(fromInline)
      expect(new Set(fromWorker).size).toBe(200)
      expect(warnings).toEqual([])
      expect(worker.signedInWorker()).toBe(200)
    } finally {
      await worker.close()
    }
  })
  it('keeps signing, inline, after the worker was closed', async () => {
    const secret = randomBytes(32)
    const worker = createWorkerSigner(secret, silentLogger)
    const first = await worker.sign(claims(1))
    const pending = worker.sign(claims(2))
    await worker.close()
    expect(await pending).toBe(await createInlineSigner(secret).sign(claims(2)))
    expect(await worker.sign(claims(1))).toBe(first)
  })
  it('mints tokens the issuer verifies, with either signer', async () => {
    const secret = randomBytes(32)
    for (const signer of ['inline', 'worker'] as const) {
      const tokens = createTokenIssuer({secret, clock: () => 1_780_000_000_000, signer, cacheEntries: 0})
      try {
        const {token} = await tokens.mint('alpha', 'ab'.repeat(32))
        expect(await tokens.verify(token)).toEqual({agentId: 'alpha', keyHint: 'ab'.repeat(8)})
      } finally {
        await tokens.close()
      }
    }
  })
})
