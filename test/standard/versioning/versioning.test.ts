import {mkdir, readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {getValidator} from '../../../src/lib/schemas.js'
import {CURRENT_STANDARD_VERSION} from '../../../src/standard/constants.js'
import {parseFrontmatter, splitFrontmatter} from '../../../src/standard/frontmatter.js'
import {
  BUILTIN_CHANGELOG,
  BUILTIN_LATEST,
  entriesBetween,
  migrateStandard,
  migrateTeamCard,
  parseChangelog,
  readInstalledVersion,
  resolveStandardUrls,
  siteFromDocs,
} from '../../../src/standard/versioning/index.js'
import {tempProject} from '../scaffold/temp-project.js'

const OLD_CARD = `---
id: reviewer # who reviews
name: Code reviewer
kind: specialist
title: Reviewer
required: true
owns: [src/]
never:
  - push
model: opus
refs: []
credentials_hint: none
---
You review.\r\n\n  Keep   this   exactly.\n`

describe('changelog', () => {
  it('ships v12–v38 oldest first, ending at the version new scaffolds get', () => {
    expect(BUILTIN_CHANGELOG[0].version).toBe(12)
    expect(BUILTIN_LATEST).toBe(CURRENT_STANDARD_VERSION)
    expect(BUILTIN_CHANGELOG.map((entry) => entry.version)).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 22, 33, 34, 35, 36, 37, 38])
  })
  it('parses entries headed ## v<N> and picks those in between', () => {
    const entries = parseChangelog('# Changelog\nintro\n## v40 — newest\nline a\n\n### detail\n## v39\nbody 39\n## Not a version\nstill 39\n')
    expect(entries).toEqual([{version: 39, text: 'body 39\n## Not a version\nstill 39'}, {version: 40, text: 'newest\nline a\n\n### detail'}])
    expect(entriesBetween(BUILTIN_CHANGELOG, 35, 37).map((entry) => entry.version)).toEqual([36, 37])
    expect(entriesBetween(BUILTIN_CHANGELOG, 37, null).map((entry) => entry.version)).toEqual([38])
  })
})

describe('standard URLs', () => {
  it('derives the site from hub.docs', () => {
    expect(siteFromDocs('https://mesh.dev/docs')).toBe('https://mesh.dev')
    expect(siteFromDocs('https://mesh.dev/docs/')).toBe('https://mesh.dev')
    expect(siteFromDocs('https://example.org/mesh/docs?x=1')).toBe('https://example.org/mesh')
    expect(siteFromDocs('https://docs.example.org/')).toBe('https://docs.example.org')
  })
  it('prefers --url, then the env var, then mesh.json', async () => {
    const root = await tempProject()
    expect(await resolveStandardUrls(root, undefined, {})).toEqual({versionUrl: 'https://mesh.dev/standard/version', changelogUrl: 'https://mesh.dev/standard/CHANGELOG.md', source: 'mesh.json'})
    expect(await resolveStandardUrls(root, undefined, {MESH_STANDARD_URL: 'http://127.0.0.1:9/v'})).toMatchObject({versionUrl: 'http://127.0.0.1:9/v', changelogUrl: 'http://127.0.0.1:9/CHANGELOG.md', source: 'env'})
    expect(await resolveStandardUrls(root, 'http://h.example/s/version', {MESH_STANDARD_URL: 'http://x/'})).toMatchObject({source: 'flag', changelogUrl: 'http://h.example/s/CHANGELOG.md'})
    await expect(resolveStandardUrls(root, 'not a url', {})).rejects.toMatchObject({code: 'usage_url_invalid'})
    await expect(resolveStandardUrls(root, 'file:///etc/passwd', {})).rejects.toMatchObject({code: 'usage_url_invalid'})
    await writeFile(join(root, 'mesh.json'), '{}')
    expect(await resolveStandardUrls(root, undefined, {})).toBeNull()
  })
})

describe('migrateTeamCard', () => {
  it('drops retired fields, fills title from name when missing, and keeps the body byte-identical', () => {
    const result = migrateTeamCard(OLD_CARD, 'reviewer')
    expect(result.changed).toBe(true)
    expect(result.dropped).toEqual(['name', 'kind', 'required', 'owns', 'never', 'refs', 'credentials_hint'])
    expect(result.filled).toEqual([])
    expect(splitFrontmatter(result.text).body).toBe(splitFrontmatter(OLD_CARD).body)
    expect(result.text).toContain('id: reviewer # who reviews')
    const data = parseFrontmatter(result.text).data
    expect(data).toEqual({id: 'reviewer', title: 'Reviewer', model: 'opus'})
    expect(getValidator('team-member')(data)).toBe(true)
  })
  it('takes the title from the retired name and the id from the file', () => {
    const result = migrateTeamCard('---\nname: Old Name\nagent_type: coder\n---\nbody\n', 'old-name')
    expect(parseFrontmatter(result.text).data).toEqual({id: 'old-name', title: 'Old Name'})
    expect(result.filled).toEqual(['title', 'id'])
  })
  it('leaves a current card untouched', () => {
    const card = '---\nid: dev\ntitle: Dev\n---\nbody\n'
    expect(migrateTeamCard(card, 'dev')).toEqual({text: card, changed: false, dropped: [], filled: []})
  })
})

describe('migrateStandard', () => {
  it('migrates every card, reports each, then raises STANDARD_VERSION; dry-run writes nothing', async () => {
    const root = await tempProject()
    await writeFile(join(root, '.mesh/STANDARD_VERSION'), '35\n')
    await writeFile(join(root, '.mesh/team/reviewer.md'), OLD_CARD)
    await mkdir(join(root, '.mesh/team/.archive'), {recursive: true})
    await writeFile(join(root, '.mesh/team/.archive/old.md'), '---\nname: x\n---\n')
    const seeded = await readFile(join(root, '.mesh/team/architect.md'), 'utf8')

    const dry = await migrateStandard(root, {dryRun: true})
    expect(dry).toMatchObject({from: 35, to: 38, dry_run: true, bumped: true, changed: [{path: '.mesh/team/reviewer.md'}]})
    expect(await readFile(join(root, '.mesh/team/reviewer.md'), 'utf8')).toBe(OLD_CARD)
    expect(await readInstalledVersion(root)).toBe(35)

    const real = await migrateStandard(root)
    expect(real.changed).toEqual(dry.changed)
    expect(real.manual).toEqual([])
    expect(await readInstalledVersion(root)).toBe(38)
    expect(splitFrontmatter(await readFile(join(root, '.mesh/team/reviewer.md'), 'utf8')).body).toBe(splitFrontmatter(OLD_CARD).body)
    expect(await readFile(join(root, '.mesh/team/architect.md'), 'utf8')).toBe(seeded)
    expect(await readFile(join(root, '.mesh/team/.archive/old.md'), 'utf8')).toBe('---\nname: x\n---\n')
    expect(await migrateStandard(root)).toMatchObject({changed: [], bumped: false})
  })
  it('lists entries with no automatic migration, and skips unreadable cards', async () => {
    const root = await tempProject()
    await writeFile(join(root, '.mesh/STANDARD_VERSION'), '17\n')
    await writeFile(join(root, '.mesh/team/broken.md'), 'no frontmatter\n')
    const latin1 = Buffer.from('---\nid: latin\ntitle: Caf\u00e9\nkind: x\n---\nbody\n', 'latin1')
    await writeFile(join(root, '.mesh/team/latin.md'), latin1)
    const report = await migrateStandard(root)
    expect(report.manual.map((entry) => entry.version)).toEqual([18, 19, 22, 33, 34, 35])
    expect(report.skipped).toEqual([
      {path: '.mesh/team/broken.md', reason: expect.any(String)},
      {path: '.mesh/team/latin.md', reason: expect.stringMatching(/not valid UTF-8/)},
    ])
    expect(await readFile(join(root, '.mesh/team/latin.md'))).toEqual(latin1)
  })
  it('refuses a project newer than this mesh, changing nothing', async () => {
    const root = await tempProject()
    await writeFile(join(root, '.mesh/STANDARD_VERSION'), '99\n')
    await expect(migrateStandard(root)).rejects.toMatchObject({code: 'standard_newer'})
    await writeFile(join(root, '.mesh/STANDARD_VERSION'), 'thirty\n')
    await expect(migrateStandard(root)).rejects.toMatchObject({code: 'standard_version_invalid'})
  })
})
