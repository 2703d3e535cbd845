/**
 * mesh register's failures as a user meets them: exit code, one JSON error,
 * no stack trace, no secret, and nothing registered. Spawns the built CLI.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {runCli, startServer, type RunningServer} from '../../support/cli.js'
import {errorTestHooks, ERROR_TEST_ENV, expectCleanFailure, jsonError, SECRET} from '../../support/registry-impostor.js'

const ENV = ERROR_TEST_ENV
const {workspace} = errorTestHooks()
const running: RunningServer[] = []
afterEach(() => {
  for (const server of running.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL')
})
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, {env: {...ENV, ...env}})

describe('register failures', () => {
  it('checks agents.json and the identity key before registering anything', async () => {
    const w = await workspace()
    const registry = await startServer('registry', ['--data', join(w.dir, 'data')])
    running.push(registry)
    await mkdir(w.creds, {recursive: true})
    await writeFile(join(w.creds, 'agents.json'), '{not json')
    const corrupt = await cli(['register', 'alpha', '--registry', registry.url, '--credentials', w.creds, '--json'])
    expectCleanFailure(corrupt, 1)
    expect(jsonError(corrupt.stdout).code).toBe('credentials_unreadable')
    // Nothing was registered: the api_key would have been lost.
    const show = await cli(['agent', 'show', 'alpha', '--registry', registry.url, '--json'])
    expect(jsonError(show.stdout).code).toBe('agent_not_found')

    const other = join(w.dir, 'other')
    await mkdir(other, {recursive: true, mode: 0o700})
    await writeFile(join(other, 'identity.alpha'), `garbage ${SECRET}`, {mode: 0o600})
    const garbage = await cli(['register', 'alpha', '--registry', registry.url, '--credentials', other, '--json'])
    expectCleanFailure(garbage, 1)
    expect(JSON.parse(garbage.stdout)).toEqual({error: {code: 'identity_key_unreadable', message: expect.stringContaining('not an Ed25519 private key')}})
  })
})
