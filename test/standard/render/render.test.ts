import {readFile, rm, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {MARKERS} from '../../../src/standard/constants.js'
import {parseMarkedFile, planTargets, renderAgentInstructions, renderResources, replaceResourcesText} from '../../../src/standard/render/index.js'
import {tempProject} from '../scaffold/temp-project.js'

const {preambleBegin: PB, preambleEnd: PE, operatorBegin: OB, operatorEnd: OE, resourcesEnd: RE} = MARKERS
const source = (preamble: string, operator: string) => `# Title\n${PB}${preamble}${PE}\n\n${OB}${operator}${OE}\ntrailer\n`
const read = (root: string, path: string) => readFile(join(root, path), 'utf8')

describe('parseMarkedFile', () => {
  it('finds both blocks', () => {
    const parsed = parseMarkedFile(source('\nrules\n', '\nmine\n'), 'X.md')
    expect(parsed.preamble).toBe('\nrules\n')
    expect(parsed.operator).toBe('\nmine\n')
  })
  it.each([
    ['a missing marker', `${PB}x${PE}${OB}y`, /X\.md: the marker <!-- mesh:operator:end --> is missing/],
    ['a doubled marker', `${PB}x${PE}${OB}y${OE}${OE}`, /appears 2 times/],
    ['markers out of order', `${OB}y${OE}${PB}x${PE}`, /comes before/],
    ['preamble end before begin', `${PE}x${PB}${OB}y${OE}`, /comes before/],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parseMarkedFile(text, 'X.md')).toThrow(message)
    expect(() => parseMarkedFile(text, 'X.md')).toThrow(expect.objectContaining({code: 'markers_invalid', kind: 'invalid'}))
  })
})

describe('planTargets', () => {
  it('copies the source and keeps each existing operator block byte-identical', () => {
    const src = source('\nnew rules\n', '\nsource operator\n')
    const mine = '\r\n  my own  CLAUDE notes\t\n<!-- a comment -->\n'
    const plan = planTargets(src, new Map([['CLAUDE.md', source('\nold rules\n', mine).replace('trailer', 'old trailer')], ['AGENTS.md', undefined]]))
    expect(plan[0].after).toBe(source('\nnew rules\n', mine))
    expect(plan[1].after).toBe(src)
  })
  it('refuses when a target has broken markers, before producing anything', () => {
    expect(() => planTargets(source('a', 'b'), new Map([['AGENTS.md', undefined], ['GEMINI.md', 'no markers here\n']]))).toThrow(/GEMINI\.md: the marker/)
  })
})

describe('renderAgentInstructions', () => {
  it('updates the preamble of every target and never touches operator text', async () => {
    const root = await tempProject()
    const srcPath = join(root, '.mesh/public/AGENT_INSTRUCTIONS.md')
    const original = await read(root, '.mesh/public/AGENT_INSTRUCTIONS.md')
    await writeFile(join(root, 'CLAUDE.md'), original.replace(/(mesh:operator:begin -->)[\s\S]*(<!-- mesh:operator:end)/, '$1\nClaude-only notes ✓\n$2'))
    await rm(join(root, 'GEMINI.md'))
    await writeFile(srcPath, original.replace('## Anchor every turn', '## Anchor every single turn'))
    const results = await renderAgentInstructions(root)
    expect(results).toEqual([{path: 'CLAUDE.md', outcome: 'updated'}, {path: 'AGENTS.md', outcome: 'updated'}, {path: 'GEMINI.md', outcome: 'created'}])
    const claude = await read(root, 'CLAUDE.md')
    expect(claude).toContain('## Anchor every single turn')
    expect(parseMarkedFile(claude, 'CLAUDE.md').operator).toBe('\nClaude-only notes ✓\n')
    expect(await read(root, 'GEMINI.md')).toBe(await read(root, '.mesh/public/AGENT_INSTRUCTIONS.md'))
    expect(await renderAgentInstructions(root)).toEqual([
      {path: 'CLAUDE.md', outcome: 'unchanged'},
      {path: 'AGENTS.md', outcome: 'unchanged'},
      {path: 'GEMINI.md', outcome: 'unchanged'},
    ])
  })

  it('changes nothing anywhere when one file has bad markers', async () => {
    const root = await tempProject()
    const srcPath = join(root, '.mesh/public/AGENT_INSTRUCTIONS.md')
    await writeFile(srcPath, (await read(root, '.mesh/public/AGENT_INSTRUCTIONS.md')).replace('Anchor', 'Changed'))
    await writeFile(join(root, 'AGENTS.md'), (await read(root, 'AGENTS.md')).replace(OE, ''))
    const before = await Promise.all(['CLAUDE.md', 'AGENTS.md', 'GEMINI.md'].map((path) => read(root, path)))
    await expect(renderAgentInstructions(root)).rejects.toMatchObject({code: 'markers_invalid', message: expect.stringMatching(/^AGENTS\.md/)})
    expect(await Promise.all(['CLAUDE.md', 'AGENTS.md', 'GEMINI.md'].map((path) => read(root, path)))).toEqual(before)
    await writeFile(srcPath, 'no markers\n')
    await expect(renderAgentInstructions(root)).rejects.toMatchObject({message: expect.stringMatching(/^\.mesh\/public\/AGENT_INSTRUCTIONS\.md/)})
  })

  it('check mode reports and writes nothing', async () => {
    const root = await tempProject()
    await rm(join(root, 'AGENTS.md'))
    expect((await renderAgentInstructions(root, {check: true}))[1]).toEqual({path: 'AGENTS.md', outcome: 'created'})
    await expect(read(root, 'AGENTS.md')).rejects.toThrow()
  })

  it('says how to get a source when there is none', async () => {
    const root = await tempProject()
    await rm(join(root, '.mesh/public/AGENT_INSTRUCTIONS.md'))
    await expect(renderAgentInstructions(root)).rejects.toMatchObject({code: 'instructions_source_missing'})
  })
})

describe('RESOURCES.md', () => {
  it('replaces everything above the marker and keeps the rest byte-identical', () => {
    const below = `${RE}\n\n## Ours\r\n\n- [x](https://x.example)  \n`
    expect(replaceResourcesText(`old canonical\nlines\n${below}`, '# New\n\ncanonical')).toBe(`# New\n\ncanonical\n${below}`)
  })
  it('creates a file with the marker, and refuses a file without it or text containing it', () => {
    expect(replaceResourcesText(undefined, 'canon\n')).toBe(`canon\n${RE}\n`)
    expect(() => replaceResourcesText('no marker\n', 'x')).toThrow(expect.objectContaining({code: 'markers_invalid'}))
    expect(() => replaceResourcesText(`x\n${RE}\n`, `sneaky ${RE}`)).toThrow(expect.objectContaining({code: 'resources_invalid'}))
  })
  it('writes the project file', async () => {
    const root = await tempProject()
    const before = await read(root, '.mesh/public/RESOURCES.md')
    const tail = before.slice(before.indexOf(RE))
    expect(await renderResources(root, '# Canonical\n')).toEqual({path: '.mesh/public/RESOURCES.md', outcome: 'updated'})
    expect(await read(root, '.mesh/public/RESOURCES.md')).toBe(`# Canonical\n${tail}`)
    expect((await renderResources(root, '# Canonical\n')).outcome).toBe('unchanged')
  })
})

describe('renderAgentInstructions with symbolic links', () => {
  it('leaves a target that links to another target as a link, and renders the one it points to', async () => {
    const {lstat, readlink, symlink} = await import('node:fs/promises')
    const root = await tempProject()
    await rm(join(root, 'CLAUDE.md'))
    await symlink('AGENTS.md', join(root, 'CLAUDE.md'))
    const srcPath = join(root, '.mesh/public/AGENT_INSTRUCTIONS.md')
    await writeFile(srcPath, (await read(root, '.mesh/public/AGENT_INSTRUCTIONS.md')).replace('## Commits', '## Commit rules'))
    const results = await renderAgentInstructions(root)
    expect(results).toEqual([
      {path: 'CLAUDE.md', outcome: 'linked', link: 'AGENTS.md'},
      {path: 'AGENTS.md', outcome: 'updated'},
      {path: 'GEMINI.md', outcome: 'updated'},
    ])
    expect((await lstat(join(root, 'CLAUDE.md'))).isSymbolicLink()).toBe(true)
    expect(await readlink(join(root, 'CLAUDE.md'))).toBe('AGENTS.md')
    expect(await read(root, 'CLAUDE.md')).toContain('## Commit rules')
  })

  it('never follows a link out of the repository, and never parses what it points to', async () => {
    const {symlink} = await import('node:fs/promises')
    const root = await tempProject()
    const outside = join(root, '..', `outside-${Date.now()}.md`)
    await writeFile(outside, 'no markers here\n')
    try {
      await rm(join(root, 'GEMINI.md'))
      await symlink(outside, join(root, 'GEMINI.md'))
      const results = await renderAgentInstructions(root)
      expect(results.find((result) => result.path === 'GEMINI.md')).toEqual({path: 'GEMINI.md', outcome: 'linked', link: outside})
      expect(await readFile(outside, 'utf8')).toBe('no markers here\n')
    } finally {
      await rm(outside, {force: true})
    }
  })
})
