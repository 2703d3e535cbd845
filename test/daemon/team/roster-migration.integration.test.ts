import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs'
import {join, relative} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {parseFrontmatter, splitFrontmatter} from '../../../src/standard/frontmatter.js'
import {BASE_TEAM, teamCard} from '../../../src/standard/scaffold/templates/team.js'
import {makeRepo, type FixtureRepo} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'

let harness: DaemonHarness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})

const ANSWERS = {name: 'Demo', id: 'demo', type: 'product', hub: 'https://hub.example.com', hubDocs: 'https://hub.example.com/docs'} as any
const BODY = (who: string) => `You are the ${who}.\r\n\n  Keep   these   spaces.\n\n\n`
const CONVS = '.mesh/.runtime/chat/convs'
const TAGS = 'team.migrate,init-archive'

/** An older roster: seeded cards (marked required/kind/agent_type) beside the operator's own. */
const OLD = {
  lead: `---\nid: lead\nname: Team lead\nkind: seeded\nagent_type: coordinator\nrequired: true\npinned_order: 1\nmodel: opus # strongest\n---\n${BODY('lead')}`,
  developer: `---\nid: developer\nname: Developer\nrequired: true\nowns: [src/]\nclient: claude\n---\n${BODY('developer')}`,
  tester: `---\nid: tester\ntitle: Tester\nkind: seeded\nnever: [push]\n---\n${BODY('tester')}`,
  reviewer: `---\nid: reviewer\nname: Reviewer\nagent_type: seeded\n---\n${BODY('reviewer')}`,
  mine: `---\nid: mine\nname: My helper\nkind: specialist\ndelegates_to: [lead]\nexposure: internal\n---\n${BODY('helper')}`,
  notes: `---\nid: notes\ntitle: Note keeper\nclient: claude\n---\n${BODY('note keeper')}`,
  bad: '---\ntitle: [broken\nkind: seeded\n---\nBroken.\n',
}
const EARLIER_ARCHIVE = '---\nid: reviewer\ntitle: An earlier reviewer\n---\nOlder.\n'

function oldRoster(): FixtureRepo {
  const repo = makeRepo().remove('.mesh/team/architect.md')
  for (const [id, text] of Object.entries(OLD)) repo.write(`.mesh/team/${id}.md`, text)
  repo.write('.mesh/team/.archive/reviewer.md', EARLIER_ARCHIVE)
  repo.write(`${CONVS}/c-lead.json`, JSON.stringify({conv: 'c-lead', member: 'lead', session_id: 's1', turns: 3}, null, 2) + '\n')
  repo.write(`${CONVS}/c-tester.json`, JSON.stringify({conv: 'c-tester', member: 'tester', turns: 1}))
  repo.write(`${CONVS}/c-reviewer.json`, JSON.stringify({conv: 'c-reviewer', member: 'reviewer'}) + '\n')
  repo.write(`${CONVS}/c-mine.json`, JSON.stringify({conv: 'c-mine', member: 'mine'}, null, 2) + '\n')
  repo.write(`${CONVS}/c-dev.json`, JSON.stringify({conv: 'c-dev', member: 'developer'}) + '\n')
  return repo
}

/** Every file under the given repo folders, path → bytes. */
function filesUnder(repo: FixtureRepo, ...folders: string[]): Record<string, string> {
  const files: Record<string, string> = {}
  const walk = (dir: string) => {
    if (!existsSync(dir)) return
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else files[relative(repo.root, path)] = readFileSync(path, 'utf8')
    }
  }
  for (const folder of folders) walk(join(repo.root, folder))
  return files
}

const fields = (text: string) => parseFrontmatter(text).data as Record<string, unknown>
const conv = (repo: FixtureRepo, id: string) => JSON.parse(repo.read(`${CONVS}/${id}.json`))
const migrationLines = async (h: DaemonHarness) => (await h.call('GET', `/debug/tail?tag=${TAGS}&last=3600`, {auth: true})).body.events as any[]

describe('roster migration at start (spec v36, v37)', () => {
  it('renames the seeded coordinator, archives other seeded cards, migrates the rest in place and repoints conversations', async () => {
    const repo = oldRoster()
    harness = await startHarness({repo})

    // The coordinator is now the architect: same body, id architect, title from name, retired fields gone.
    expect(existsSync(join(repo.root, '.mesh/team/lead.md'))).toBe(false)
    const architect = repo.read('.mesh/team/architect.md')
    expect(splitFrontmatter(architect).body).toBe(BODY('lead'))
    expect(fields(architect)).toEqual({id: 'architect', title: 'Team lead', model: 'opus'})
    expect(architect).toContain('model: opus # strongest')

    // Other seeded cards move to team/.archive/ (migrated, body kept); an earlier archive is never overwritten.
    expect(existsSync(join(repo.root, '.mesh/team/tester.md'))).toBe(false)
    expect(splitFrontmatter(repo.read('.mesh/team/.archive/tester.md')).body).toBe(BODY('tester'))
    expect(fields(repo.read('.mesh/team/.archive/tester.md'))).toEqual({id: 'tester', title: 'Tester'})
    expect(repo.read('.mesh/team/.archive/reviewer.md')).toBe(EARLIER_ARCHIVE)
    expect(splitFrontmatter(repo.read('.mesh/team/.archive/reviewer-2.md')).body).toBe(BODY('reviewer'))

    // A seeded card with a base-team id stays; operator cards are migrated in place only, or not touched at all.
    expect(fields(repo.read('.mesh/team/developer.md'))).toEqual({id: 'developer', title: 'Developer', client: 'claude'})
    expect(splitFrontmatter(repo.read('.mesh/team/developer.md')).body).toBe(BODY('developer'))
    expect(fields(repo.read('.mesh/team/mine.md'))).toEqual({id: 'mine', title: 'My helper', exposure: 'internal'})
    expect(splitFrontmatter(repo.read('.mesh/team/mine.md')).body).toBe(BODY('helper'))
    expect(repo.read('.mesh/team/notes.md')).toBe(OLD.notes)
    expect(repo.read('.mesh/team/bad.md')).toBe(OLD.bad)

    // Conversations of the renamed and archived members belong to the architect now; the others are untouched.
    expect(conv(repo, 'c-lead')).toEqual({conv: 'c-lead', member: 'architect', session_id: 's1', turns: 3})
    expect(repo.read(`${CONVS}/c-lead.json`)).toBe(JSON.stringify({conv: 'c-lead', member: 'architect', session_id: 's1', turns: 3}, null, 2) + '\n')
    expect(repo.read(`${CONVS}/c-tester.json`)).toBe(JSON.stringify({conv: 'c-tester', member: 'architect', turns: 1}))
    expect(conv(repo, 'c-reviewer').member).toBe('architect')
    expect(conv(repo, 'c-mine').member).toBe('mine')
    expect(conv(repo, 'c-dev').member).toBe('developer')

    // The roster as served, and the removed cards kept as snapshots.
    const list = await harness.call('GET', '/team')
    expect(list.body.members.map((m: any) => m.id)).toEqual(['architect', 'bad', 'developer', 'mine', 'notes'])
    expect(list.body.members.filter((m: any) => m.problem).map((m: any) => m.id)).toEqual(['bad'])
    const snapshots = Object.entries(filesUnder(repo, '.mesh/snapshots')).filter(([path]) => path.endsWith('index.jsonl')).map(([, text]) => text).join('')
    const kept = snapshots.trim().split('\n').map((line) => JSON.parse(line))
    expect(kept.filter((record) => record.reason === 'team.migrate').map((record) => record.path).sort()).toEqual(['team/developer.md', 'team/lead.md', 'team/mine.md', 'team/reviewer.md', 'team/tester.md'])

    // One debug line per action.
    const lines = await migrationLines(harness)
    const info = lines.filter((line) => line.lvl === 'info')
    expect(info.map((line) => [line.tag, line.data.from, line.data.to, line.data.path])).toEqual([
      ['team.migrate', 'lead', 'architect', '.mesh/.runtime/chat/convs/c-lead.json'],
      ['team.migrate', 'lead', 'architect', '.mesh/team/architect.md'],
      ['team.migrate', 'reviewer', 'architect', '.mesh/.runtime/chat/convs/c-reviewer.json'],
      ['init-archive', 'reviewer', 'architect', '.mesh/team/.archive/reviewer-2.md'],
      ['team.migrate', 'tester', 'architect', '.mesh/.runtime/chat/convs/c-tester.json'],
      ['init-archive', 'tester', 'architect', '.mesh/team/.archive/tester.md'],
      ['team.migrate', 'developer', 'developer', '.mesh/team/developer.md'],
      ['team.migrate', 'mine', 'mine', '.mesh/team/mine.md'],
    ])
    expect(info[1].msg).toBe('renamed the seeded coordinator .mesh/team/lead.md to .mesh/team/architect.md (v37)')
    expect(info[0]).toMatchObject({conv: 'c-lead', msg: 'conversation c-lead of lead now belongs to architect'})
    expect(info[5].msg).toBe('archived the seeded card .mesh/team/tester.md to .mesh/team/.archive/tester.md (v37)')
    expect(info[6].msg).toBe('migrated .mesh/team/developer.md in place (dropped name, required, owns; filled title)')
    const warnings = lines.filter((line) => line.lvl === 'warn')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatchObject({tag: 'team.migrate', data: {from: 'bad', path: '.mesh/team/bad.md'}})
    expect(warnings[0].msg).toMatch(/^left \.mesh\/team\/bad\.md alone: the frontmatter is not valid YAML/)

    // A second start changes nothing and says nothing new.
    const before = filesUnder(repo, '.mesh/team', CONVS, '.mesh/snapshots')
    await harness.running.stop()
    harness = undefined
    harness = await startHarness({repo})
    expect(filesUnder(repo, '.mesh/team', CONVS, '.mesh/snapshots')).toEqual(before)
    expect((await migrationLines(harness)).filter((line) => line.lvl === 'info')).toHaveLength(info.length)
  })

  it('writes and logs nothing for a v38 roster', async () => {
    const repo = makeRepo()
    for (const member of BASE_TEAM) repo.write(`.mesh/team/${member.id}.md`, teamCard(member, ANSWERS))
    repo.write(`${CONVS}/c1.json`, JSON.stringify({conv: 'c1', member: 'developer'}))
    const before = filesUnder(repo, '.mesh/team', CONVS)
    harness = await startHarness({repo})
    expect(filesUnder(repo, '.mesh/team', CONVS)).toEqual(before)
    expect(existsSync(join(repo.root, '.mesh/snapshots'))).toBe(false)
    expect(await migrationLines(harness)).toEqual([])
  })

  it('archives the seeded coordinator when an architect exists, and leaves conversations alone when no architect is left', async () => {
    const kept = makeRepo().write('.mesh/team/lead.md', `---\nid: lead\ntitle: Lead\nrequired: true\n---\n${BODY('lead')}`)
    kept.write(`${CONVS}/c1.json`, JSON.stringify({conv: 'c1', member: 'lead'}))
    const architectBefore = kept.read('.mesh/team/architect.md')
    harness = await startHarness({repo: kept})
    expect(kept.read('.mesh/team/architect.md')).toBe(architectBefore)
    expect(splitFrontmatter(kept.read('.mesh/team/.archive/lead.md')).body).toBe(BODY('lead'))
    expect(conv(kept, 'c1').member).toBe('architect')
    await harness.close()

    const alone = makeRepo().remove('.mesh/team/architect.md').write('.mesh/team/tester.md', `---\ntitle: Tester\nkind: seeded\n---\n${BODY('tester')}`)
    alone.write(`${CONVS}/c2.json`, JSON.stringify({conv: 'c2', member: 'tester'}))
    harness = await startHarness({repo: alone})
    expect(existsSync(join(alone.root, '.mesh/team/tester.md'))).toBe(false)
    expect(fields(alone.read('.mesh/team/.archive/tester.md'))).toEqual({title: 'Tester', id: 'tester'})
    expect(conv(alone, 'c2').member).toBe('tester')
    expect((await migrationLines(harness)).map((line) => [line.tag, line.data.to])).toEqual([['init-archive', null]])
  })
})
