import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {buildCall, loadClients, SCRIPT_CLIENT_PATH} from '../../../../src/daemon/chat/clients/resolve.js'
import {DEFAULT_CLIENTS} from '../../../../src/daemon/chat/clients/templates.js'

const vars = {model: 'opus', session: 'S', system: 'SYS', prompt: 'hello', script: '/s.yaml', firstTurn: true}

describe('client calls', () => {
  it('gives claude the system prompt as an argument on the first turn, and resumes the session after', () => {
    const first = buildCall(DEFAULT_CLIENTS.claude, vars)
    expect(first.argv).toEqual(['claude', '-p', '--model', 'opus', '--session-id', 'S', '--append-system-prompt', 'SYS', '--output-format', 'text'])
    expect(first).toMatchObject({stdin: 'hello', resumed: false})
    const later = buildCall(DEFAULT_CLIENTS.claude, {...vars, firstTurn: false, system: null})
    expect(later.argv).toEqual(['claude', '-p', '--model', 'opus', '--resume', 'S', '--output-format', 'text'])
    expect(later.resumed).toBe(true)
  })

  it('puts the system prompt ahead of the text for clients without a system argument, and expands effort where supported', () => {
    const codex = buildCall(DEFAULT_CLIENTS.codex, {...vars, model: 'gpt-5-codex', effort: 'high'})
    expect(codex.argv).toEqual(['codex', 'exec', '--model', 'gpt-5-codex', '--skip-git-repo-check', '-c', 'model_reasoning_effort=high', '-'])
    expect(codex.stdin).toBe('SYS\n\n---\n\nhello')
    expect(buildCall(DEFAULT_CLIENTS.codex, {...vars, effort: 'default'}).argv).not.toContain('-c')
    const gemini = buildCall(DEFAULT_CLIENTS.gemini, vars)
    expect(gemini.argv.at(-1)).toBe('SYS\n\n---\n\nhello')
    expect(gemini.stdin).toBeNull()
    expect(buildCall(DEFAULT_CLIENTS.script, vars).argv).toEqual([process.execPath, SCRIPT_CLIENT_PATH, '/s.yaml'])
  })

  it('reads this machine’s clients over the defaults and skips unusable entries', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mesh-clients-'))
    try {
      mkdirSync(join(root, '.mesh', 'agents'), {recursive: true})
      writeFileSync(join(root, '.mesh', 'agents', 'clients.yaml'), 'clients:\n  claude:\n    command: [/opt/claude, -p]\n  local:\n    command: [llm, -m, "{model}"]\n    model: llama3\n  broken:\n    command: nope\n')
      const logged: string[] = []
      const clients = await loadClients({meshPath: (...parts) => join(root, '.mesh', ...parts), debug: {log: (event: {msg: string}) => logged.push(event.msg)} as never})
      expect(clients.claude).toMatchObject({command: ['/opt/claude', '-p'], resume: undefined, system: 'argument', defaultModel: 'opus'})
      expect(clients.local).toMatchObject({command: ['llm', '-m', '{model}'], system: 'prompt', stdin: true, defaultModel: 'llama3'})
      expect(clients.broken).toBeUndefined()
      expect(logged).toEqual([expect.stringContaining('client broken needs `command`')])
    } finally {
      rmSync(root, {recursive: true, force: true})
    }
  })
})
