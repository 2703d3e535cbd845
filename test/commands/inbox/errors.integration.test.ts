/**
 * The inbox commands' failures against a server that is not a mesh registry:
 * exit code, one clear line (or one JSON error), no stack trace, no secret.
 * Spawns the built CLI.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'
import {runCli} from '../../support/cli.js'
import {expectCleanFailure, jsonError, registeredFrom, startImpostor, type Impostor} from '../../support/registry-impostor.js'

const ENV = {MESH_SECRETS_BACKEND: 'file', MESH_REGISTRY: '', MESH_API_KEY: '', MESH_CREDENTIALS_DIR: ''}
const dirs: string[] = []
let fake: Impostor
let fakeUrl = ''

beforeAll(async () => {
  fake = await startImpostor()
  fakeUrl = fake.url
})
afterAll(() => fake.close())
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

async function workspace() {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-errors-'))
  dirs.push(dir)
  return {dir, creds: join(dir, 'creds')}
}
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, {env: {...ENV, ...env}})

describe('inbox read failures', () => {
  it('--all --json still prints the messages it consumed before a later page failed, and exits 1', async () => {
    const w = await workspace()
    await registeredFrom(w.creds, `${fakeUrl}/flaky`)
    fake.resetFlaky()
    const result = await cli(['inbox', 'read', '--all', '--limit', '2', '--credentials', w.creds, '--json'])
    expectCleanFailure(result, 1)
    const answer = JSON.parse(result.stdout)
    expect(answer.messages.map((m: {id: number}) => m.id)).toEqual([1, 2])
    expect(answer.error.code).toBe('http_500')
  })
})

describe('inbox watch failures', () => {
  it('says the address did not open the agent WebSocket, as one NDJSON line', async () => {
    const w = await workspace()
    await registeredFrom(w.creds, `${fakeUrl}/tokens-only`)
    const result = await cli(['inbox', 'watch', '--credentials', w.creds, '--json'])
    expectCleanFailure(result, 1)
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
    expect(jsonError(result.stdout).message).toContain('did not open the agent WebSocket')
  })
})
