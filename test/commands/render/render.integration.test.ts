import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {MARKERS} from '../../../src/standard/constants.js'
import {tempProject} from '../../standard/scaffold/temp-project.js'
import {json, runCli} from '../../support/cli.js'

const read = (root: string, path: string) => readFile(join(root, path), 'utf8')

describe('mesh render (built CLI)', () => {
  it('renders the source into the targets, keeping each operator block', async () => {
    const root = await tempProject()
    const claude = (await read(root, 'CLAUDE.md')).replace(/(operator:begin -->)[\s\S]*(<!-- mesh:operator:end)/, '$1\nOnly for Claude.\n$2')
    await writeFile(join(root, 'CLAUDE.md'), claude)
    const source = join(root, '.mesh/public/AGENT_INSTRUCTIONS.md')
    await writeFile(source, (await readFile(source, 'utf8')).replace('## Commits', '## Commit rules'))

    const check = await runCli(['render', '--check', '-C', root])
    expect(check.code).toBe(1)
    expect(check.stdout).toMatch(/^would be updated {2}CLAUDE\.md$/m)
    expect(check.errorText).toMatch(/3 files are out of date/)
    expect(await read(root, 'CLAUDE.md')).toBe(claude)

    const result = await runCli(['render', '-C', root, '--json'])
    expect(result.code).toBe(0)
    expect(json(result).files.map((file: {outcome: string}) => file.outcome)).toEqual(['updated', 'updated', 'updated'])
    const rendered = await read(root, 'CLAUDE.md')
    expect(rendered).toContain('## Commit rules')
    expect(rendered).toContain('\nOnly for Claude.\n')
    expect(await read(root, 'AGENTS.md')).toBe(await readFile(source, 'utf8'))
    expect((await runCli(['render', '--check', '-C', root])).code).toBe(0)
  })

  it('refuses with exit 1 and changes nothing when markers are broken', async () => {
    const root = await tempProject()
    await writeFile(join(root, 'GEMINI.md'), (await read(root, 'GEMINI.md')).replace(MARKERS.preambleBegin, ''))
    const source = join(root, '.mesh/public/AGENT_INSTRUCTIONS.md')
    await writeFile(source, (await readFile(source, 'utf8')).replace('## Commits', '## Changed'))
    const before = await Promise.all(['CLAUDE.md', 'AGENTS.md', 'GEMINI.md'].map((path) => read(root, path)))
    const result = await runCli(['render', '-C', root])
    expect(result.code).toBe(1)
    expect(result.errorText).toMatch(/GEMINI\.md: the marker <!-- mesh:preamble:begin --> is missing; nothing was changed/)
    expect(await Promise.all(['CLAUDE.md', 'AGENTS.md', 'GEMINI.md'].map((path) => read(root, path)))).toEqual(before)
  })

  it('--resources replaces the mirrored part of RESOURCES.md and keeps the operator part byte for byte', async () => {
    const root = await tempProject()
    const resources = join(root, '.mesh/public/RESOURCES.md')
    const tail = `${MARKERS.resourcesEnd}\n\n## Ours\r\n- keep  me\n`
    await writeFile(resources, `old mirror\n${tail}`)
    await writeFile(join(root, 'canonical.md'), '# Network resources\n\n- New hub page\n')
    const result = await runCli(['render', '--resources', join(root, 'canonical.md'), '-C', root])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^updated\s+\.mesh\/public\/RESOURCES\.md$/m)
    expect(await readFile(resources, 'utf8')).toBe(`# Network resources\n\n- New hub page\n${tail}`)
    const fromStdin = await runCli(['render', '--resources', '-', '-C', root], {input: 'piped\n'})
    expect(fromStdin.code).toBe(0)
    expect(await readFile(resources, 'utf8')).toBe(`piped\n${tail}`)
    const missing = await runCli(['render', '--resources', join(root, 'nope.md'), '-C', root])
    expect(missing.code).toBe(2)
    await writeFile(resources, 'no marker at all\n')
    const refused = await runCli(['render', '--resources', join(root, 'canonical.md'), '-C', root])
    expect(refused.code).toBe(1)
    expect(await readFile(resources, 'utf8')).toBe('no marker at all\n')
  })

  it('leaves a symbolic-link target as a link, and --check does not count it as out of date', async () => {
    const {lstat, rm, symlink} = await import('node:fs/promises')
    const root = await tempProject()
    await rm(join(root, 'CLAUDE.md'))
    await symlink('AGENTS.md', join(root, 'CLAUDE.md'))
    const check = await runCli(['render', '--check', '-C', root])
    expect(check.code).toBe(0)
    expect(check.stdout).toMatch(/^linked\s+CLAUDE\.md → AGENTS\.md \(symbolic link, left as it is\)$/m)
    const source = join(root, '.mesh/public/AGENT_INSTRUCTIONS.md')
    await writeFile(source, (await readFile(source, 'utf8')).replace('## Commits', '## Commit rules'))
    const result = json(await runCli(['render', '--json', '-C', root]))
    expect(result.files).toEqual([{path: 'CLAUDE.md', outcome: 'linked', link: 'AGENTS.md'}, {path: 'AGENTS.md', outcome: 'updated'}, {path: 'GEMINI.md', outcome: 'updated'}])
    expect((await lstat(join(root, 'CLAUDE.md'))).isSymbolicLink()).toBe(true)
  })
})
