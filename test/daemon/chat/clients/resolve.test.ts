import {describe, expect, it} from 'vitest'
import {DEFAULT_ACCESS, memberAccess, turnAccess} from '../../../../src/daemon/chat/clients/access.js'
import {parseClientsFile} from '../../../../src/daemon/chat/clients/parse.js'
import {buildCall, SCRIPT_CLIENT_PATH} from '../../../../src/daemon/chat/clients/resolve.js'
import {DEFAULT_CLIENTS} from '../../../../src/daemon/chat/clients/templates.js'

const vars = {model: 'opus', session: 'S', system: 'SYS', prompt: 'hello', script: '/s.yaml', firstTurn: true, access: 'edit' as const, systemFile: '/private/system.md', promptFile: '/private/prompt.md'}
const STREAM = ['--output-format', 'stream-json', '--verbose', '--include-partial-messages']

describe('client calls', () => {
  it('gives claude the system prompt in a private file on a fresh session, the prompt on stdin, its stream flags, and resumes the session after', () => {
    const first = buildCall(DEFAULT_CLIENTS.claude, vars)
    expect(first.argv).toEqual(['claude', '-p', '--model', 'opus', '--session-id', 'S', '--append-system-prompt-file', '/private/system.md', ...STREAM, '--permission-mode', 'acceptEdits'])
    expect(first).toMatchObject({stdin: 'hello', resumed: false, files: [{path: '/private/system.md', content: 'SYS'}]})
    const later = buildCall(DEFAULT_CLIENTS.claude, {...vars, firstTurn: false, system: null})
    expect(later.argv).toEqual(['claude', '-p', '--model', 'opus', '--resume', 'S', ...STREAM, '--permission-mode', 'acceptEdits'])
    expect(later).toMatchObject({resumed: true, files: []})
  })

  it('puts the system prompt ahead of the text on stdin for codex and gemini on a fresh session, resumes their own session ids, and expands effort where supported', () => {
    const codex = buildCall(DEFAULT_CLIENTS.codex, {...vars, model: 'gpt-5-codex', effort: 'high'})
    expect(codex.argv).toEqual(['codex', 'exec', '--json', '--model', 'gpt-5-codex', '--skip-git-repo-check', '--sandbox', 'workspace-write', '-c', 'model_reasoning_effort=high', '-'])
    expect(codex.stdin).toBe('SYS\n\n---\n\nhello')
    expect(buildCall(DEFAULT_CLIENTS.codex, {...vars, effort: 'default'}).argv).not.toContain('-c')
    const codexLater = buildCall(DEFAULT_CLIENTS.codex, {...vars, session: 'thread-1', firstTurn: false, system: null})
    expect(codexLater.argv).toEqual(['codex', 'exec', '--json', '--model', 'opus', '--skip-git-repo-check', '--sandbox', 'workspace-write', 'resume', 'thread-1', '-'])
    expect(codexLater.stdin).toBe('hello')
    const gemini = buildCall(DEFAULT_CLIENTS.gemini, {...vars, model: 'gemini-2.5-pro'})
    expect(gemini.argv).toEqual(['gemini', '--model', 'gemini-2.5-pro', '--output-format', 'stream-json', '--approval-mode', 'auto_edit'])
    expect(gemini.stdin).toBe('SYS\n\n---\n\nhello')
    expect(buildCall(DEFAULT_CLIENTS.gemini, {...vars, session: 'g-1', firstTurn: false}).argv).toEqual(['gemini', '--model', 'opus', '--resume', 'g-1', '--output-format', 'stream-json', '--approval-mode', 'auto_edit'])
    expect(buildCall(DEFAULT_CLIENTS.script, vars).argv).toEqual([process.execPath, SCRIPT_CLIENT_PATH, '/s.yaml'])
  })

  it('adds the project’s MCP server only when the member has it on, the way each CLI documents (issue 24)', () => {
    const mcp = {command: '/usr/bin/node', args: ['/pkg/bin/run.js', 'mcp', '--member', 'developer']}
    const on = {...vars, mcp, mcpFile: '/private/mcp.json'}
    const claude = buildCall(DEFAULT_CLIENTS.claude, on)
    // --mcp-config takes values up to the next option: an option follows it.
    expect(claude.argv.slice(3, 7)).toEqual(['opus', '--mcp-config', '/private/mcp.json', '--session-id'])
    expect(JSON.parse(claude.files.find((file) => file.path === '/private/mcp.json')!.content)).toEqual({mcpServers: {mesh: mcp}})
    expect(buildCall(DEFAULT_CLIENTS.claude, {...on, firstTurn: false, system: null}).argv).toEqual(expect.arrayContaining(['--mcp-config', '/private/mcp.json', '--resume']))
    const codex = buildCall(DEFAULT_CLIENTS.codex, on)
    expect(codex.argv).toEqual(expect.arrayContaining(['-c', 'mcp_servers.mesh.command="/usr/bin/node"', '-c', 'mcp_servers.mesh.args=["/pkg/bin/run.js", "mcp", "--member", "developer"]']))
    expect(codex.argv.at(-1)).toBe('-')
    const codexLater = buildCall(DEFAULT_CLIENTS.codex, {...on, firstTurn: false, system: null}).argv
    expect(codexLater.indexOf('mcp_servers.mesh.command="/usr/bin/node"')).toBeLessThan(codexLater.indexOf('resume'))
    const gemini = buildCall(DEFAULT_CLIENTS.gemini, on)
    expect(gemini.env).toEqual({GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/private/mcp.json'})
    expect(gemini.files).toContainEqual({path: '/private/mcp.json', content: expect.stringContaining('"mcpServers"')})
    for (const client of ['claude', 'codex', 'gemini']) {
      const off = buildCall(DEFAULT_CLIENTS[client], vars)
      expect(off.argv.join(' ')).not.toMatch(/mcp/)
      expect(off.env).toEqual({})
    }
  })

  it('reads `mcp: {<member>: true}` from a clients file and says what it cannot use', () => {
    const parsed = parseClientsFile('mcp: {developer: true, architect: false, Bad_Id: true, tester: yes-please}\n', DEFAULT_CLIENTS, 'f')
    expect(parsed.mcp).toEqual({developer: true, architect: false})
    expect(parsed.mcpProblems).toEqual([expect.stringContaining('"Bad_Id", which is not a member id'), expect.stringContaining('the mcp entry of tester is true or false')])
    expect(parseClientsFile('mcp: [developer]\n', DEFAULT_CLIENTS, 'f').mcpProblems).toEqual([expect.stringContaining('maps member ids to true or false')])
    const custom = parseClientsFile('clients:\n  mine: {command: [mine, "{mcp}"], mcp_args: [--mcp, "{mcp_file}"]}\n  bad: {command: [bad], mcp_args: --mcp}\n', DEFAULT_CLIENTS, 'f')
    expect(buildCall(custom.templates.mine, {...vars, mcp: {command: 'n', args: []}, mcpFile: '/p/m.json'}).argv).toEqual(['mine', '--mcp', '/p/m.json'])
    expect(custom.unusable.bad).toMatch(/mcp_args/)
  })

  it('maps each access level to each CLI’s documented flags', () => {
    const argv = (client: string, access: 'read' | 'edit' | 'full') => buildCall(DEFAULT_CLIENTS[client], {...vars, access}).argv
    expect(argv('claude', 'read').slice(-7)).toEqual(['--permission-mode', 'default', '--disallowedTools', 'Edit', 'Write', 'NotebookEdit', 'Bash'])
    expect(argv('claude', 'full')).toEqual(expect.arrayContaining(['--permission-mode', 'bypassPermissions']))
    expect(argv('codex', 'read')).toEqual(expect.arrayContaining(['--sandbox', 'read-only']))
    expect(argv('codex', 'full')).toEqual(expect.arrayContaining(['--sandbox', 'danger-full-access']))
    expect(argv('gemini', 'read')).toEqual(expect.arrayContaining(['--approval-mode', 'default']))
    expect(argv('gemini', 'full')).toEqual(expect.arrayContaining(['--approval-mode', 'yolo']))
    expect(DEFAULT_CLIENTS.claude.format).toBe('claude-stream')
    expect(DEFAULT_CLIENTS.codex.format).toBe('codex-json')
    expect(DEFAULT_CLIENTS.gemini.format).toBe('gemini-stream')
  })

  it('writes the prompt to a private file for a client without stdin', () => {
    const call = buildCall({command: ['llm', '--input', '{prompt_file}'], system: 'prompt', stdin: false, defaultModel: '', format: 'text'}, vars)
    expect(call).toMatchObject({argv: ['llm', '--input', '/private/prompt.md'], stdin: null, files: [{path: '/private/prompt.md', content: 'SYS\n\n---\n\nhello'}]})
  })
})

describe('a clients file', () => {
  it('lays its templates over the ones below and lists the unusable ones with a reason', () => {
    const text = 'clients:\n  claude:\n    command: [/opt/claude, -p]\n  local:\n    command: [llm, -m, "{model}"]\n    model: llama3\n  broken:\n    command: nope\n  own-file:\n    command: [x, --system, "{system_file}"]\n'
    const parsed = parseClientsFile(text, DEFAULT_CLIENTS, 'clients.yaml')
    expect(parsed.names).toEqual(['claude', 'local', 'broken', 'own-file'])
    // A command of its own prints text unless the file says otherwise.
    expect(parsed.templates.claude).toMatchObject({command: ['/opt/claude', '-p'], resume: undefined, system: 'prompt', defaultModel: 'opus', format: 'text'})
    expect(parsed.templates.local).toMatchObject({command: ['llm', '-m', '{model}'], system: 'prompt', stdin: true, defaultModel: 'llama3', format: 'text'})
    expect(parsed.templates['own-file']).toMatchObject({system: 'file'})
    expect(parsed.unusable).toEqual({broken: expect.stringContaining('client broken needs `command`')})
  })

  it('keeps the format and access flags of a client it only retunes, takes its own, and refuses an unknown format', () => {
    const text = 'clients:\n  claude:\n    model: sonnet\n  mine:\n    command: [x]\n    format: gemini-stream\n    access: {read: [--ro], full: [--all]}\n  odd:\n    command: [x]\n    format: xml\n  worse:\n    command: [x]\n    access: {root: [--x]}\n'
    const parsed = parseClientsFile(text, DEFAULT_CLIENTS, 'clients.yaml')
    expect(parsed.templates.claude).toMatchObject({format: 'claude-stream', access: DEFAULT_CLIENTS.claude.access, defaultModel: 'sonnet'})
    expect(parsed.templates.mine).toMatchObject({format: 'gemini-stream', access: {read: ['--ro'], full: ['--all']}})
    expect(parsed.unusable.odd).toMatch(/`format` is one of text, claude-stream, codex-json, gemini-stream/)
    expect(parsed.unusable.worse).toMatch(/`access` maps read, edit, full/)
  })

  it('reads `access:` per member, and refuses an entry that names no member or no level rather than guess', () => {
    const parsed = parseClientsFile('access:\n  developer: full\n  consultant: edit\n  Bad_Id: read\n  architect: root\n', DEFAULT_CLIENTS, 'f')
    expect(parsed.access).toEqual({developer: 'full', consultant: 'edit'})
    expect(parsed.accessProblems).toEqual({Bad_Id: expect.stringContaining('not a member id'), architect: expect.stringContaining('one of read, edit, full; got "root"')})
    expect(() => parseClientsFile('access: [developer]\n', DEFAULT_CLIENTS, 'f')).toThrow(/`access` must map member ids/)
  })

  it('throws on a file that is not YAML or not a mapping, and leaves other top-level keys alone', () => {
    expect(() => parseClientsFile('clients: [', DEFAULT_CLIENTS, 'f')).toThrow(/f is not valid YAML/)
    expect(() => parseClientsFile('- a\n- b\n', DEFAULT_CLIENTS, 'f')).toThrow(/must be a mapping/)
    expect(parseClientsFile('later: {x: 1}\n', DEFAULT_CLIENTS, 'f')).toEqual({names: [], templates: {}, unusable: {}, access: {}, accessProblems: {}, mcp: {}, mcpProblems: []})
  })
})

describe('access levels', () => {
  const none = {access: {}, refusedAccess: {}}
  it('defaults from the base team, others read, and a file overrides a member', () => {
    expect(DEFAULT_ACCESS).toEqual({architect: 'read', developer: 'edit', 'git-manager': 'edit', deployer: 'edit', consultant: 'read'})
    expect(memberAccess(none, 'developer')).toEqual({level: 'edit'})
    expect(memberAccess(none, 'tester')).toEqual({level: 'read'})
    expect(memberAccess({access: {developer: 'full'}, refusedAccess: {}}, 'developer')).toEqual({level: 'full'})
    expect(memberAccess({access: {}, refusedAccess: {developer: 'bad entry'}}, 'developer')).toEqual({refused: 'bad entry'})
  })

  it('runs an ask at read whatever the member’s level, and a become turn at the lower of the two', () => {
    const state = {access: {developer: 'full' as const}, refusedAccess: {}}
    expect(turnAccess(state, {owner: 'developer', profile: 'developer', ask: true})).toEqual({level: 'read'})
    expect(turnAccess(state, {owner: 'developer', profile: 'developer', ask: false})).toEqual({level: 'full'})
    expect(turnAccess(state, {owner: 'architect', profile: 'developer', ask: false})).toEqual({level: 'read'})
    expect(turnAccess(state, {owner: 'developer', profile: 'deployer', ask: false})).toEqual({level: 'edit'})
  })
})
