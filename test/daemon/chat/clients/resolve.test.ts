import {describe, expect, it} from 'vitest'
import {parseClientsFile} from '../../../../src/daemon/chat/clients/parse.js'
import {buildCall, SCRIPT_CLIENT_PATH} from '../../../../src/daemon/chat/clients/resolve.js'
import {DEFAULT_CLIENTS} from '../../../../src/daemon/chat/clients/templates.js'

const vars = {model: 'opus', session: 'S', system: 'SYS', prompt: 'hello', script: '/s.yaml', firstTurn: true, systemFile: '/private/system.md', promptFile: '/private/prompt.md'}

describe('client calls', () => {
  it('gives claude the system prompt in a private file on the first turn, the prompt on stdin, and resumes the session after', () => {
    const first = buildCall(DEFAULT_CLIENTS.claude, vars)
    expect(first.argv).toEqual(['claude', '-p', '--model', 'opus', '--session-id', 'S', '--append-system-prompt-file', '/private/system.md', '--output-format', 'text'])
    expect(first).toMatchObject({stdin: 'hello', resumed: false, files: [{path: '/private/system.md', content: 'SYS'}]})
    const later = buildCall(DEFAULT_CLIENTS.claude, {...vars, firstTurn: false, system: null})
    expect(later.argv).toEqual(['claude', '-p', '--model', 'opus', '--resume', 'S', '--output-format', 'text'])
    expect(later).toMatchObject({resumed: true, files: []})
  })

  it('puts the system prompt ahead of the text on stdin for codex and gemini, and expands effort where supported', () => {
    const codex = buildCall(DEFAULT_CLIENTS.codex, {...vars, model: 'gpt-5-codex', effort: 'high'})
    expect(codex.argv).toEqual(['codex', 'exec', '--model', 'gpt-5-codex', '--skip-git-repo-check', '-c', 'model_reasoning_effort=high', '-'])
    expect(codex.stdin).toBe('SYS\n\n---\n\nhello')
    expect(buildCall(DEFAULT_CLIENTS.codex, {...vars, effort: 'default'}).argv).not.toContain('-c')
    const gemini = buildCall(DEFAULT_CLIENTS.gemini, {...vars, model: 'gemini-2.5-pro'})
    expect(gemini.argv).toEqual(['gemini', '--model', 'gemini-2.5-pro'])
    expect(gemini.stdin).toBe('SYS\n\n---\n\nhello')
    expect(buildCall(DEFAULT_CLIENTS.script, vars).argv).toEqual([process.execPath, SCRIPT_CLIENT_PATH, '/s.yaml'])
  })

  it('writes the prompt to a private file for a client without stdin', () => {
    const call = buildCall({command: ['llm', '--input', '{prompt_file}'], system: 'prompt', stdin: false, defaultModel: ''}, vars)
    expect(call).toMatchObject({argv: ['llm', '--input', '/private/prompt.md'], stdin: null, files: [{path: '/private/prompt.md', content: 'SYS\n\n---\n\nhello'}]})
  })
})

describe('a clients file', () => {
  it('lays its templates over the ones below and lists the unusable ones with a reason', () => {
    const text = 'clients:\n  claude:\n    command: [/opt/claude, -p]\n  local:\n    command: [llm, -m, "{model}"]\n    model: llama3\n  broken:\n    command: nope\n  own-file:\n    command: [x, --system, "{system_file}"]\n'
    const parsed = parseClientsFile(text, DEFAULT_CLIENTS, 'clients.yaml')
    expect(parsed.names).toEqual(['claude', 'local', 'broken', 'own-file'])
    expect(parsed.templates.claude).toMatchObject({command: ['/opt/claude', '-p'], resume: undefined, system: 'prompt', defaultModel: 'opus'})
    expect(parsed.templates.local).toMatchObject({command: ['llm', '-m', '{model}'], system: 'prompt', stdin: true, defaultModel: 'llama3'})
    expect(parsed.templates['own-file']).toMatchObject({system: 'file'})
    expect(parsed.unusable).toEqual({broken: expect.stringContaining('client broken needs `command`')})
  })

  it('refuses a template that would put the system prompt or the prompt into the process list', () => {
    const text = 'clients:\n  a:\n    command: [x, --append-system-prompt, "{system}"]\n  b:\n    command: [x, "--prompt={prompt}"]\n  c:\n    command: [x]\n    system: argument\n  d:\n    command: [x]\n    stdin: false\n'
    const parsed = parseClientsFile(text, DEFAULT_CLIENTS, 'clients.yaml')
    expect(parsed.templates).toEqual({})
    expect(parsed.unusable.a).toMatch(/`\{system\}` in its arguments, where every local user can read it/)
    expect(parsed.unusable.b).toMatch(/`\{prompt\}` in its arguments/)
    expect(parsed.unusable.c).toMatch(/`argument` is gone/)
    expect(parsed.unusable.d).toMatch(/has no `\{prompt_file\}`/)
  })

  it('throws on a file that is not YAML or not a mapping, and leaves other top-level keys alone', () => {
    expect(() => parseClientsFile('clients: [', DEFAULT_CLIENTS, 'f')).toThrow(/f is not valid YAML/)
    expect(() => parseClientsFile('- a\n- b\n', DEFAULT_CLIENTS, 'f')).toThrow(/must be a mapping/)
    expect(parseClientsFile('access: {developer: edit}\n', DEFAULT_CLIENTS, 'f')).toEqual({names: [], templates: {}, unusable: {}})
  })
})
