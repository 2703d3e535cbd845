/**
 * The agent commands' failures as a user meets them: exit code, one clear
 * line (or one JSON error), no stack trace, no secret. Spawns the built CLI.
 * (register: test/commands/register/errors…, inbox: test/commands/inbox/errors….)
 */
import {once} from 'node:events'
import {writeFile} from 'node:fs/promises'
import {createServer as createNetServer} from 'node:net'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runCli} from '../../support/cli.js'
import {errorTestHooks, ERROR_TEST_ENV, expectCleanFailure, jsonError, registeredFrom, SECRET} from '../../support/registry-impostor.js'

const hooks = errorTestHooks({impostor: true})
const ENV = ERROR_TEST_ENV

async function workspace() {
  const w = await hooks.workspace()
  const card = join(w.dir, 'card.json')
  await writeFile(card, JSON.stringify({name: 'Alpha', description: 'Translates.', tags: ['translate']}))
  return {...w, card}
}
async function freePort() {
  const server = createNetServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const {port} = server.address() as {port: number}
  server.close()
  return port
}
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, {env: {...ENV, ...env}})

describe('registry commands against a server that is not a mesh registry', () => {
  it.each([
    ['html', 'not JSON'],
    ['shape', 'agent_id is missing'],
    ['null', 'JSON null'],
  ])('agent show, agent identity and search refuse a %s answer with registry_bad_answer', async (kind, words) => {
    for (const args of [['agent', 'show', 'alpha'], ['agent', 'identity', 'alpha'], ['search', 'ocr']]) {
      const human = await cli([...args, '--registry', `${hooks.fake().url}/${kind}`])
      expectCleanFailure(human, 1)
      expect(human.stderr).toContain('registry_bad_answer')
      const json = await cli([...args, '--registry', `${hooks.fake().url}/${kind}`, '--json'])
      expectCleanFailure(json, 1)
      expect(jsonError(json.stdout).code).toBe('registry_bad_answer')
      if (args[0] === 'agent') expect(jsonError(json.stdout).message).toContain(words)
    }
  })
  it('refuses an empty agent id before calling anyone (it would read the listing)', async () => {
    const result = await cli(['agent', 'show', '', '--registry', hooks.fake().url, '--json'])
    expectCleanFailure(result, 2)
    expect(jsonError(result.stdout).code).toBe('usage_agent_id')
  })
})

describe('agent up failures', () => {
  it('--once exits 1 at the first failed heartbeat instead of retrying forever; --json keeps stdout NDJSON', async () => {
    const w = await workspace()
    const registry = `http://127.0.0.1:${await freePort()}`
    await registeredFrom(w.creds, registry)
    const result = await cli(['agent', 'up', '--card', w.card, '--credentials', w.creds, '--once', '--json'])
    expectCleanFailure(result, 1)
    expect(jsonError(result.stdout)).toMatchObject({code: 'registry_unreachable'})
    const impostor = await cli(['agent', 'up', '--card', w.card, '--credentials', w.creds, '--once', '--registry', `${hooks.fake().url}/html`], {MESH_API_KEY: SECRET})
    expectCleanFailure(impostor, 1)
    expect(impostor.stderr).toContain('registry_bad_answer')
  })
  it('names the card file: missing is a usage error, a YAML error is one line', async () => {
    const w = await workspace()
    const missing = await cli(['agent', 'up', '--card', join(w.dir, 'nope.json'), '--credentials', w.creds, '--json'])
    expectCleanFailure(missing, 2)
    expect(jsonError(missing.stdout).code).toBe('usage_card_not_found')
    await writeFile(join(w.dir, 'card.yaml'), 'name: [\n')
    const yaml = await cli(['agent', 'up', '--card', join(w.dir, 'card.yaml'), '--credentials', w.creds, '--json'])
    expectCleanFailure(yaml, 1)
    const error = jsonError(yaml.stdout)
    expect(error.code).toBe('card_unreadable')
    expect(error.message).toContain('card.yaml')
    expect(error.message).not.toContain('\n')
  })
  it('refuses an api_key file others can read, without printing it', async () => {
    const w = await workspace()
    await registeredFrom(w.creds, hooks.fake().url, 0o644)
    const result = await cli(['agent', 'up', '--card', w.card, '--credentials', w.creds, '--once', '--json'])
    expectCleanFailure(result, 1)
    expect(jsonError(result.stdout)).toMatchObject({code: 'secret_file_mode'})
    expect(jsonError(result.stdout).message).toContain('chmod 600')
  })
  it('refuses --credentials naming a file, and a malformed --agent, as usage errors', async () => {
    const w = await workspace()
    await writeFile(join(w.dir, 'creds-file'), 'x')
    const file = await cli(['agent', 'up', '--card', w.card, '--credentials', join(w.dir, 'creds-file')])
    expectCleanFailure(file, 2)
    expect(file.stderr).toContain('usage_credentials_dir')
    const agent = await cli(['inbox', 'read', '--agent', 'a b', '--credentials', w.creds, '--json'])
    expectCleanFailure(agent, 2)
    expect(jsonError(agent.stdout).code).toBe('usage_agent_id')
  })
})
