import {PassThrough} from 'node:stream'
import {describe, expect, it} from 'vitest'
import {DENY_LIST} from '../../../src/standard/constants.js'
import {clusterIdFrom, completeAnswers, mergeDenyList, nameFromFolder, promptAnswers} from '../../../src/standard/scaffold/index.js'

describe('answers', () => {
  it('derives an id from a name and a name from a folder', () => {
    expect(clusterIdFrom('Café Órbita: API!')).toBe('cafe-orbita-api')
    expect(clusterIdFrom('x')).toBe('mesh-project')
    expect(clusterIdFrom('a'.repeat(50))).toHaveLength(40)
    expect(nameFromFolder('/tmp/my_app-api')).toBe('My app api')
  })
  it('fills defaults and checks given answers', () => {
    expect(completeAnswers({name: 'Demo'}, '/tmp/x')).toEqual({name: 'Demo', id: 'demo', type: 'dev', hub: 'https://mesh.dev', hubDocs: 'https://mesh.dev/docs'})
    expect(completeAnswers({hub: 'http://127.0.0.1:8080/'}, '/tmp/x').hubDocs).toBe('http://127.0.0.1:8080/docs')
    expect(() => completeAnswers({id: 'Bad Id'}, '/tmp/x')).toThrow(expect.objectContaining({code: 'usage_id_invalid'}))
    expect(() => completeAnswers({type: 'web' as never}, '/tmp/x')).toThrow(expect.objectContaining({code: 'usage_type_invalid'}))
    expect(() => completeAnswers({hub: 'ftp://x'}, '/tmp/x')).toThrow(expect.objectContaining({code: 'usage_hub_invalid'}))
    expect(() => completeAnswers({name: ' '}, '/tmp/x')).toThrow(expect.objectContaining({code: 'usage_name_invalid'}))
  })
})

describe('mergeDenyList', () => {
  it('writes the whole list into a missing .gitignore', () => {
    const {text, added} = mergeDenyList(undefined)
    expect(added).toEqual([...DENY_LIST])
    expect(text.split('\n').slice(1, -1)).toEqual([...DENY_LIST])
  })
  it('appends only what is missing, after a blank line, keeping every existing line', () => {
    const existing = 'dist\n.mesh/credentials/\n/.mesh/agents\n'
    const {text, added} = mergeDenyList(existing)
    expect(added).not.toContain('.mesh/credentials/')
    expect(added).not.toContain('.mesh/agents/')
    expect(text.startsWith(`${existing}\n# mesh`)).toBe(true)
    expect(mergeDenyList(text)).toEqual({text, added: []})
  })
  it('ends an unterminated last line and keeps CRLF files CRLF', () => {
    expect(mergeDenyList('dist').text.startsWith('dist\n\n# mesh')).toBe(true)
    const crlf = mergeDenyList('dist\r\n').text
    expect(crlf.startsWith('dist\r\n\r\n# mesh')).toBe(true)
    expect(crlf.replace(/\r\n/g, '')).not.toContain('\n')
  })
})

describe('promptAnswers', () => {
  const run = async (lines: string[], given = {}) => {
    const input = new PassThrough()
    const output = new PassThrough()
    let printed = ''
    output.on('data', (chunk) => (printed += String(chunk)))
    const answered = promptAnswers(given, '/tmp/my-repo', {input, output})
    for (const line of lines) input.write(`${line}\n`)
    return {answers: await answered, printed: () => printed, input}
  }
  it('takes defaults on Enter and typed answers otherwise', async () => {
    const {answers} = await run(['', '', 'service', 'https://hub.example'])
    expect(answers).toEqual({name: 'My repo', id: 'my-repo', type: 'service', hub: 'https://hub.example'})
  })
  it('asks again after a bad answer, explaining why', async () => {
    const {answers, printed} = await run(['Demo', 'BAD ID', 'demo-2', 'web', 'mixed', ''])
    expect(answers).toMatchObject({name: 'Demo', id: 'demo-2', type: 'mixed', hub: 'https://mesh.dev'})
    expect(printed()).toMatch(/must be 2 to 40 characters/)
    expect(printed()).toMatch(/must be one of dev, comms, service, mixed/)
  })
  it('asks only for what is missing', async () => {
    const {answers} = await run(['comms'], {name: 'Given', id: 'given', hub: 'https://h.example'})
    expect(answers).toEqual({name: 'Given', id: 'given', type: 'comms', hub: 'https://h.example'})
  })
  it('cancels when the input ends', async () => {
    const input = new PassThrough()
    const answered = promptAnswers({}, '/tmp/x', {input, output: new PassThrough()})
    input.end()
    await expect(answered).rejects.toMatchObject({code: 'usage_cancelled'})
  })
})
