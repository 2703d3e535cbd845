import {spawn, spawnSync} from 'node:child_process'
import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {tempDir} from '../../standard/scaffold/temp-project.js'
import {cliCommandLine, cliEnv, json, runCli} from '../../support/cli.js'

/** util-linux `script` runs a command on a pseudo-terminal, so the prompts can be driven for real. */
const hasScript = spawnSync('script', ['--version'], {stdio: 'ignore'}).status === 0

/** Runs `mesh init <dir>` on a pseudo-terminal, typing `input`; resolves with what the terminal showed. */
function initOnTerminal(dir: string, input: string): Promise<{code: number | null; screen: string}> {
  return new Promise((resolve, reject) => {
    // CI='' lets mesh see the terminal and prompt.
    const child = spawn('script', ['-qec', cliCommandLine(['init', dir]), '/dev/null'], {env: cliEnv({CI: ''}), stdio: ['pipe', 'pipe', 'pipe']})
    let screen = ''
    child.stdout.on('data', (chunk) => (screen += String(chunk)))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, screen}))
    child.stdin.end(input)
  })
}

describe('mesh init (built CLI)', () => {
  it('scaffolds with flags, and mesh validate then reports zero findings', async () => {
    const dir = await tempDir()
    const init = await runCli(['init', dir, '--name', 'Demo App', '--type', 'service', '--hub', 'http://127.0.0.1:7000', '--yes'])
    expect(init.code).toBe(0)
    expect(init.stdout).toMatch(/^created {2}mesh\.json$/m)
    expect(init.stdout).toMatch(/Demo App \(demo-app\): 33 created/)
    const cluster = await readFile(join(dir, '.mesh/public/cluster.yaml'), 'utf8')
    expect(cluster).toContain('type: service')
    expect(cluster).toContain('endpoint: ws://127.0.0.1:7000/v1/clusters/demo-app/ws')
    const validate = await runCli(['validate', dir, '--json'])
    expect(validate.code).toBe(0)
    expect(json(validate).findings).toEqual([])
    expect(json(validate).summary).toMatchObject({errors: 0, warnings: 0, infos: 0})
  })

  it('without a terminal and without --yes, takes defaults and says so on stderr, never waiting on stdin', async () => {
    const dir = await tempDir('my-proj-')
    const result = await runCli(['init'], {cwd: dir})
    expect(result.code).toBe(0)
    expect(result.errorText).toMatch(/No terminal to ask on: using defaults for name, id, type, hub/)
    expect(JSON.parse(await readFile(join(dir, 'mesh.json'), 'utf8'))).toEqual({mesh_version: 1, hub: {url: 'https://mesh.dev', docs: 'https://mesh.dev/docs'}})
  })

  it('re-running keeps every file, and --json lists the outcome of each', async () => {
    const dir = await tempDir()
    await runCli(['init', dir, '--yes'])
    await writeFile(join(dir, '.mesh/context/overview.md'), '---\ntitle: Mine\nupdated: 2026-01-01\n---\nmy words\n')
    const again = await runCli(['init', dir, '--json', '--name', 'Ignored'])
    expect(again.code).toBe(0)
    const result = json(again)
    expect(result.files.length).toBe(33)
    expect(result.files.every((file: {outcome: string}) => file.outcome === 'kept')).toBe(true)
    // The identity already written wins over defaults; flags given win over it.
    expect(result.answers.name).toBe('Ignored')
    expect(await readFile(join(dir, '.mesh/context/overview.md'), 'utf8')).toBe('---\ntitle: Mine\nupdated: 2026-01-01\n---\nmy words\n')
  })

  it('rejects bad answers with exit 2 and writes nothing', async () => {
    const dir = await tempDir()
    for (const args of [['--id', 'Bad Id'], ['--type', 'web'], ['--hub', 'not-a-url']]) {
      const result = await runCli(['init', dir, '--yes', ...args])
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).not.toMatch(/\n\s+at /)
    }
    const jsonError = await runCli(['init', dir, '--yes', '--json', '--id', 'X'])
    expect(jsonError.code).toBe(2)
    expect(json(jsonError)).toEqual({error: {code: 'usage_id_invalid', message: expect.any(String), field: 'id'}})
    await expect(readFile(join(dir, 'mesh.json'))).rejects.toThrow()
  })

  it.skipIf(!hasScript)('on a terminal, asks each question with its default, asks again after a bad answer, and uses the answers', async () => {
    const dir = await tempDir('tty-proj-')
    // name, id (Enter: the default from the name), a bad type then a good one, hub.
    const {code, screen} = await initOnTerminal(dir, 'Shop Front\n\nweb\nservice\nhttps://hub.example.com\n')
    expect(code).toBe(0)
    expect(screen).toMatch(/Project name \[Tty proj [^\]]*\]: /)
    expect(screen).toContain('Project id [shop-front]: ')
    expect(screen).toContain('The project type must be one of dev, comms, service, mixed.')
    expect(screen).toContain('Hub URL [https://mesh.dev]: ')
    const cluster = await readFile(join(dir, '.mesh/public/cluster.yaml'), 'utf8')
    expect(cluster).toMatch(/^id: shop-front$/m)
    expect(cluster).toMatch(/^name: Shop Front$/m)
    expect(cluster).toMatch(/^type: service$/m)
    expect(JSON.parse(await readFile(join(dir, 'mesh.json'), 'utf8')).hub).toEqual({url: 'https://hub.example.com', docs: 'https://hub.example.com/docs'})
  })
})
