/**
 * The inbox commands' failures against a server that is not a mesh registry:
 * exit code, one clear line (or one JSON error), no stack trace, no secret.
 * Spawns the built CLI.
 */
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runCli} from '../../support/cli.js'
import {errorTestHooks, ERROR_TEST_ENV, expectCleanFailure, jsonError, registeredFrom} from '../../support/registry-impostor.js'

const hooks = errorTestHooks({impostor: true})
const ENV = ERROR_TEST_ENV
const workspace = hooks.workspace
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, {env: {...ENV, ...env}})

describe('inbox read failures', () => {
  it('--all --json still prints the messages it consumed before a later page failed, and exits 1', async () => {
    const w = await workspace()
    await registeredFrom(w.creds, `${hooks.fake().url}/flaky`)
    hooks.fake().resetFlaky()
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
    await registeredFrom(w.creds, `${hooks.fake().url}/tokens-only`)
    const result = await cli(['inbox', 'watch', '--credentials', w.creds, '--json'])
    expectCleanFailure(result, 1)
    expect(result.stdout.trim().split('\n')).toHaveLength(1)
    expect(jsonError(result.stdout).message).toContain('did not open the agent WebSocket')
  })
})
