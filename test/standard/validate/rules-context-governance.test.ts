import {describe, expect, it} from 'vitest'
import {frontmatter, TODAY} from '../fixtures.js'
import {brief, findingsFor, ofRule} from './helpers.js'

const words = (count: number) => Array.from({length: count}, (_, index) => `word${index}`).join(' ')
const ctx = (count: number) => frontmatter({title: 'T', updated: TODAY}, `\n${words(count)}\n`)
const doc = (overrides: Record<string, unknown> = {}, body = '\n# Doc\n\nText.\n') =>
  frontmatter({title: 'A doc', category: 'ops', updated: TODAY, owner: 'architect', status: 'stable', ...overrides}, body)

describe('context tree', () => {
  it('context-required: each missing required file warns', async () => {
    const findings = await findingsFor({}, (repo) => repo.remove('.mesh/context/stack.md'))
    expect(ofRule(findings, 'context-required')).toMatchObject([{file: '.mesh/context/stack.md', severity: 'warning'}])
  })
  it('context-budget: required file 200 ok, 201 warns, 251 errors; frontmatter words do not count', async () => {
    expect(await findingsFor({'.mesh/context/overview.md': ctx(200)})).toEqual([])
    expect(ofRule(await findingsFor({'.mesh/context/overview.md': ctx(201)}), 'context-budget')).toMatchObject([{severity: 'warning', line: 5}])
    expect(ofRule(await findingsFor({'.mesh/context/overview.md': ctx(251)}), 'context-budget')).toMatchObject([{severity: 'error'}])
  })
  it('context-budget: glossary over 250, decisions and criteria over 100 are errors', async () => {
    const findings = await findingsFor({
      '.mesh/context/glossary.md': ctx(251),
      '.mesh/context/decisions/2026-01-05-use-yaml.md': ctx(101),
      '.mesh/context/criteria/speed.md': ctx(101),
      '.mesh/context/criteria/size.md': ctx(100),
    })
    expect(ofRule(findings, 'context-budget').map((finding) => `${finding.file}:${finding.severity}`)).toEqual([
      '.mesh/context/criteria/speed.md:error',
      '.mesh/context/decisions/2026-01-05-use-yaml.md:error',
      '.mesh/context/glossary.md:error',
    ])
  })
  it('context-total: over 3,000 words in all is an error', async () => {
    const extra: Record<string, string> = {}
    for (let index = 0; index < 31; index++) extra[`.mesh/context/decisions/2026-01-${String((index % 28) + 1).padStart(2, '0')}-d${index}x.md`] = ctx(99)
    const findings = await findingsFor(extra)
    expect(ofRule(findings, 'context-total')).toMatchObject([{file: '.mesh/context/', severity: 'error'}])
  })
  it('decision-filename: YYYY-MM-DD-<slug>.md', async () => {
    expect(brief(await findingsFor({'.mesh/context/decisions/use-yaml.md': ctx(10)}))).toEqual(['decision-filename@.mesh/context/decisions/use-yaml.md:1'])
  })
  it('schema: context frontmatter holds only title and updated', async () => {
    const findings = await findingsFor({'.mesh/context/overview.md': frontmatter({title: 'T', updated: TODAY, owner: 'x'}, '\nText.\n')})
    expect(brief(findings)).toEqual(['schema@.mesh/context/overview.md:4'])
  })
})

describe('governance', () => {
  it('r1-category: folder equals category; a doc directly in docs/ warns', async () => {
    const findings = await findingsFor({'.mesh/docs/product/a.md': doc({title: 'A'}), '.mesh/docs/loose.md': doc({title: 'B'})})
    expect(ofRule(findings, 'r1-category').map((finding) => `${finding.file}:${finding.line}:${finding.severity}`)).toEqual([
      '.mesh/docs/loose.md:3:warning',
      '.mesh/docs/product/a.md:3:warning',
    ])
  })
  it('r2-length: 200 lines pass, 201 is an error at line 201 (INDEX.md and exempt files too)', async () => {
    const body = (lines: number) => '\n' + Array.from({length: lines}, (_, index) => `line ${index}`).join('\n') + '\n'
    expect(await findingsFor({'.mesh/docs/ops/long.md': doc({}, body(192))})).toEqual([])
    const findings = await findingsFor({'.mesh/docs/ops/long.md': doc({}, body(193)), '.mesh/docs/README.md': body(205)})
    expect(brief(ofRule(findings, 'r2-length'))).toEqual(['r2-length@.mesh/docs/README.md:201', 'r2-length@.mesh/docs/ops/long.md:201'])
  })
  it('r3-duplicate-title: two docs, one title (case-insensitive)', async () => {
    const findings = await findingsFor({'.mesh/docs/ops/a.md': doc({title: 'Deploy'}), '.mesh/docs/ops/b.md': doc({title: 'deploy'})})
    expect(brief(findings)).toEqual(['r3-duplicate-title@.mesh/docs/ops/b.md:2'])
  })
  it('r4-frontmatter: a doc without frontmatter is an error; INDEX/README/governance are exempt', async () => {
    const findings = await findingsFor({'.mesh/docs/ops/bare.md': '# Bare\n', '.mesh/docs/ops/README.md': '# Ops\n'})
    expect(brief(findings)).toEqual(['r4-frontmatter@.mesh/docs/ops/bare.md:1'])
  })
  it('r5-copied-block: 6 shared lines warn once per pair; 5 do not; blank and punctuation lines are ignored', async () => {
    const block = (count: number) => Array.from({length: count}, (_, index) => `Shared sentence number ${index}.`).join('\n\n---\n\n')
    expect(await findingsFor({'.mesh/docs/ops/a.md': doc({title: 'A'}, `\n${block(5)}\n`), '.mesh/docs/ops/b.md': doc({title: 'B'}, `\nIntro.\n${block(5)}\n`)})).toEqual([])
    const findings = await findingsFor({'.mesh/docs/ops/a.md': doc({title: 'A'}, `\n${block(8)}\n`), '.mesh/docs/ops/b.md': doc({title: 'B'}, `\nIntro.\n${block(8)}\n`)})
    expect(ofRule(findings, 'r5-copied-block')).toMatchObject([{file: '.mesh/docs/ops/b.md', line: 10, severity: 'warning', message: expect.stringContaining('.mesh/docs/ops/a.md from line 9')}])
  })
  it('r6-index-map: paragraphs, tables and code are flagged; headings, links, one-line descriptions are not', async () => {
    const index = '# Docs\n\nOne line about the docs.\n\n- [A](ops/a.md)\n  What A is.\n\nA paragraph\nthat goes on.\n\n| a | b |\n|---|---|\n\n```\ncode\n```\n'
    const findings = await findingsFor({'.mesh/docs/INDEX.md': index})
    expect(brief(findings)).toEqual(['r6-index-map@.mesh/docs/INDEX.md:8', 'r6-index-map@.mesh/docs/INDEX.md:11', 'r6-index-map@.mesh/docs/INDEX.md:14'])
  })
})
