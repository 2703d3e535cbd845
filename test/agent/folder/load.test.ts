import {mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {loadAgentFolder} from '../../../src/agent/folder/load.js'
import {REPO_ROOT} from '../../support/cli.js'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

const echoCard = async () => JSON.parse(await readFile(join(REPO_ROOT, 'examples/echo/agent.json'), 'utf8')) as Record<string, any>

/** A folder with the given files (objects are written as JSON); returns its path. */
async function folder(files: Record<string, string | object>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-agent-folder-'))
  dirs.push(dir)
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content))
  return dir
}

/** The MeshError loadAgentFolder throws, as {code, message, field}. */
async function failure(dir: string) {
  const error = await loadAgentFolder(dir).then(
    () => {
      throw new Error('expected loadAgentFolder to fail')
    },
    (e: unknown) => e as {code: string; message: string; field?: string; kind: string},
  )
  // One line for the user, never a stack.
  expect(error.message).not.toContain('\n')
  return error
}

describe('loadAgentFolder', () => {
  it('loads the echo example: the card, its handlers, absolute paths', async () => {
    const loaded = await loadAgentFolder(join(REPO_ROOT, 'examples/echo'))
    expect(loaded.card.name).toBe('Echo')
    expect(loaded.handlersFile).toBe(join(REPO_ROOT, 'examples/echo/handlers.mjs'))
    expect(await loaded.handlers.echo({message: 'hi'}, {} as never)).toEqual({message: 'hi'})
  })

  it('takes handlers.js, as ESM or as CommonJS (module.exports is the default export)', async () => {
    const card = await echoCard()
    const cjs = await folder({'agent.json': card, 'handlers.js': 'module.exports = {echo: async (input) => ({cjs: input.message})}'})
    expect(await (await loadAgentFolder(cjs)).handlers.echo({message: 'a'}, {} as never)).toEqual({cjs: 'a'})
    const esm = await folder({'agent.json': card, 'package.json': {type: 'module'}, 'handlers.js': 'export default {echo: async (input) => ({esm: input.message})}'})
    expect(await (await loadAgentFolder(esm)).handlers.echo({message: 'b'}, {} as never)).toEqual({esm: 'b'})
  })

  it('names what is missing: the folder, agent.json, the handlers file (usage errors)', async () => {
    const missing = await failure('/nonexistent/agent-folder')
    expect(missing).toMatchObject({code: 'usage_agent_folder'})
    expect(missing.message).toContain('/nonexistent/agent-folder')
    const file = await folder({'agent.json': {}})
    expect(await failure(join(file, 'agent.json'))).toMatchObject({code: 'usage_agent_folder', message: expect.stringContaining('is a file')})
    const noCard = await folder({'handlers.mjs': 'export default {}'})
    expect(await failure(noCard)).toMatchObject({code: 'usage_agent_folder', message: expect.stringContaining('has no agent.json')})
    const noHandlers = await folder({'agent.json': await echoCard()})
    expect(await failure(noHandlers)).toMatchObject({code: 'usage_agent_folder', message: expect.stringContaining('has no handlers.js or handlers.mjs')})
  })

  it('refuses both handlers.js and handlers.mjs rather than guess', async () => {
    const both = await folder({'agent.json': await echoCard(), 'handlers.js': 'module.exports = {}', 'handlers.mjs': 'export default {}'})
    expect(await failure(both)).toMatchObject({code: 'handlers_ambiguous', message: expect.stringContaining('both handlers.js and handlers.mjs')})
  })

  it('names the file and the field of a bad card', async () => {
    const notJson = await folder({'agent.json': '{"name": ', 'handlers.mjs': 'export default {}'})
    const parse = await failure(notJson)
    expect(parse).toMatchObject({code: 'agent_card_invalid'})
    expect(parse.message).toContain(join(notJson, 'agent.json'))
    expect(parse.message).toContain('not valid JSON')

    const {url: _url, ...withoutUrl} = await echoCard()
    const noUrl = await failure(await folder({'agent.json': withoutUrl, 'handlers.mjs': 'export default {}'}))
    expect(noUrl).toMatchObject({code: 'agent_card_invalid', field: 'url', message: expect.stringContaining('"url" is missing')})

    const card = await echoCard()
    card.skills[0].examples = ['only one']
    const examples = await failure(await folder({'agent.json': card, 'handlers.mjs': 'export default {}'}))
    expect(examples).toMatchObject({field: 'skills[0].examples'})
    expect(examples.message).toMatch(/agent\.json is not a valid PublicCard: "skills\[0\]\.examples" must NOT have fewer than 2 items/)

    card.skills[0].examples = ['a', '{}']
    card.skills[0].id = 'Echo_Skill'
    expect(await failure(await folder({'agent.json': card, 'handlers.mjs': 'export default {}'}))).toMatchObject({
      field: 'skills[0].id',
      message: expect.stringContaining('must be kebab-case'),
    })
    expect(await failure(await folder({'agent.json': [], 'handlers.mjs': 'export default {}'}))).toMatchObject({code: 'agent_card_invalid', message: expect.stringContaining('one JSON object')})
  })

  it('lists skills without a handler and handlers without a skill, naming both files', async () => {
    const card = await echoCard()
    card.skills.push({...card.skills[0], id: 'shout'})
    const dir = await folder({'agent.json': card, 'handlers.mjs': 'export default {echo: async () => ({}), whisper: async () => ({})}'})
    const error = await failure(dir)
    expect(error).toMatchObject({code: 'handlers_mismatch', field: 'skills[1].id'})
    expect(error.message).toContain(`skill "shout" of ${join(dir, 'agent.json')} has no handler in ${join(dir, 'handlers.mjs')}`)
    expect(error.message).toContain(`${join(dir, 'handlers.mjs')} exports "whisper", which is not a skill id`)
  })

  it('refuses a default export that is not an object of functions', async () => {
    const card = await echoCard()
    const none = await failure(await folder({'agent.json': card, 'handlers.mjs': 'export async function echo() { return {} }'}))
    expect(none).toMatchObject({code: 'handlers_invalid'})
    expect(none.message).toContain('must `export default` an object')
    expect(none.message).toContain('export default {echo}')
    const notFunction = await failure(await folder({'agent.json': card, 'handlers.mjs': 'export default {echo: "hello"}'}))
    expect(notFunction).toMatchObject({code: 'handlers_invalid', message: expect.stringContaining('"echo" is a string')})
    expect(await failure(await folder({'agent.json': card, 'handlers.mjs': 'export default async () => ({})'}))).toMatchObject({code: 'handlers_invalid'})
  })

  // Under vitest the import goes through vite's module runner, whose words differ from Node's; the
  // integration test (test/commands/agent/serve.integration.test.ts) checks Node's line numbers.
  it('reports a handlers file that fails to import with its name, on one line', async () => {
    const card = await echoCard()
    const syntax = await folder({'agent.json': card, 'handlers.mjs': 'export default {\n  echo: async (input) => input,\n  oops oops\n}\n'})
    const syntaxError = await failure(syntax)
    expect(syntaxError.code).toBe('handlers_failed')
    expect(syntaxError.message.startsWith(join(syntax, 'handlers.mjs'))).toBe(true)
    expect(syntaxError.message).toContain('failed to load: ')

    const throws = await folder({'agent.json': card, 'handlers.mjs': "const key = process.env.NOPE\nif (!key) throw new Error('set NOPE first')\nexport default {echo: async () => ({})}\n"})
    const thrown = await failure(throws)
    expect(thrown.code).toBe('handlers_failed')
    expect(thrown.message).toMatch(/handlers\.mjs(:\d+(:\d+)?)? failed to load: set NOPE first$/)
  })
})
