import {describe, expect, it} from 'vitest'
import {parseFrontmatter, splitFrontmatter} from '../../../src/standard/frontmatter.js'
import {isSeeded, isSeededCoordinator, planRosterMigration, type RosterCard, type RosterStep} from '../../../src/standard/versioning/roster-plan.js'

const BODY = 'You lead.\r\n\n  Keep   this   exactly.\n\n'
const card = (stem: string, yaml: string, body = BODY): RosterCard => ({stem, text: `---\n${yaml}\n---\n${body}`})
const data = (text: string) => parseFrontmatter(text).data as Record<string, unknown>
const summary = (steps: RosterStep[]) => steps.map((step) => (step.action === 'migrate' || step.action === 'skip' ? `${step.action} ${step.stem}` : `${step.action} ${step.from}`))

describe('which cards were seeded', () => {
  it('is the retired marks required: true, kind: seeded or agent_type: seeded', () => {
    expect(isSeeded({required: true})).toBe(true)
    expect(isSeeded({required: 'true'})).toBe(true)
    expect(isSeeded({kind: 'seeded'})).toBe(true)
    expect(isSeeded({kind: 'Seed'})).toBe(true)
    expect(isSeeded({agent_type: 'seeded'})).toBe(true)
    expect(isSeeded({kind: 'specialist'})).toBe(false)
    expect(isSeeded({agent_type: 'coder', required: false})).toBe(false)
    expect(isSeeded({})).toBe(false)
  })
  it('calls a seeded card the coordinator by its stem, kind or agent_type', () => {
    expect(isSeededCoordinator('lead', {required: true})).toBe(true)
    expect(isSeededCoordinator('boss', {kind: 'seeded', agent_type: 'coordinator'})).toBe(true)
    expect(isSeededCoordinator('boss', {required: true, kind: 'planner'})).toBe(true)
    expect(isSeededCoordinator('lead', {kind: 'specialist'})).toBe(false)
    expect(isSeededCoordinator('tester', {required: true})).toBe(false)
  })
})

describe('planRosterMigration', () => {
  it('renames the seeded coordinator to architect, archives other seeded cards, migrates the rest in place', () => {
    const steps = planRosterMigration([
      card('lead', 'id: lead # the old coordinator\nname: Team lead\nkind: seeded\nagent_type: coordinator\nrequired: true\nmodel: opus'),
      card('developer', 'id: developer\nname: Developer\nrequired: true\nowns: [src/]'),
      card('tester', 'id: tester\ntitle: Tester\nkind: seeded\nnever: [push]'),
      card('mine', 'id: mine\nname: My helper\nkind: specialist\ndelegates_to: [lead]'),
      card('clean', 'id: clean\ntitle: Clean\nclient: claude'),
    ])
    expect(summary(steps)).toEqual(['rename lead', 'archive tester', 'migrate developer', 'migrate mine'])
    const rename = steps[0] as Extract<RosterStep, {action: 'rename'}>
    expect(rename.to).toBe('architect')
    expect(data(rename.text)).toEqual({id: 'architect', title: 'Team lead', model: 'opus'})
    expect(rename.text).toContain('# the old coordinator')
    expect(splitFrontmatter(rename.text).body).toBe(BODY)
    const archive = steps[1] as Extract<RosterStep, {action: 'archive'}>
    expect(archive.repointTo).toBe('architect')
    expect(data(archive.text)).toEqual({id: 'tester', title: 'Tester'})
    expect(splitFrontmatter(archive.text).body).toBe(BODY)
    const developer = steps[2] as Extract<RosterStep, {action: 'migrate'}>
    expect(developer).toMatchObject({dropped: ['name', 'required', 'owns'], filled: ['title']})
    expect(data(developer.text)).toEqual({id: 'developer', title: 'Developer'})
    expect(splitFrontmatter(developer.text).body).toBe(BODY)
    expect(data((steps[3] as Extract<RosterStep, {action: 'migrate'}>).text)).toEqual({id: 'mine', title: 'My helper'})
  })

  it('never replaces an existing architect: the seeded coordinator is archived instead', () => {
    const steps = planRosterMigration([card('architect', 'id: architect\ntitle: Architect'), card('lead', 'id: lead\ntitle: Lead\nrequired: true')])
    expect(summary(steps)).toEqual(['archive lead'])
    expect(steps[0]).toMatchObject({repointTo: 'architect'})
  })

  it('renames the preferred coordinator when several compete, archives the others', () => {
    const steps = planRosterMigration([
      card('planner', 'title: Planner\nkind: seeded'),
      card('boss', 'title: Boss\nkind: seeded\nagent_type: lead'),
      card('lead', 'title: Lead\nrequired: true'),
    ])
    expect(summary(steps)).toEqual(['rename lead', 'archive planner', 'archive boss'])
  })

  it('gives a renamed card without title or name the title Architect', () => {
    const [step] = planRosterMigration([card('coordinator', 'required: true')])
    expect(step.action).toBe('rename')
    expect(data((step as Extract<RosterStep, {action: 'rename'}>).text)).toEqual({id: 'architect', title: 'Architect'})
  })

  it('archives without repointing when no coordinator is left', () => {
    const steps = planRosterMigration([card('tester', 'title: Tester\nrequired: true')])
    expect(steps).toMatchObject([{action: 'archive', from: 'tester', repointTo: null}])
  })

  it('keeps seeded cards with base-team ids where they are', () => {
    const steps = planRosterMigration(['architect', 'developer', 'git-manager', 'deployer', 'consultant'].map((id) => card(id, `title: ${id}\nkind: seeded`)))
    expect(summary(steps)).toEqual(['migrate architect', 'migrate developer', 'migrate git-manager', 'migrate deployer', 'migrate consultant'])
  })

  it('never renames or archives an operator card, whatever its id', () => {
    const steps = planRosterMigration([card('lead', 'id: lead\ntitle: Lead\nkind: coordinator'), card('tester', 'id: tester\ntitle: Tester\nagent_type: qa')])
    expect(summary(steps)).toEqual(['migrate lead', 'migrate tester'])
  })

  it('plans nothing for a v38 roster, or for what it already planned (idempotent)', () => {
    expect(planRosterMigration([card('architect', 'id: architect\ntitle: Architect'), card('x', 'id: x\ntitle: X')])).toEqual([])
    const first = planRosterMigration([card('lead', 'name: Lead\nrequired: true'), card('dev', 'name: Dev\nowns: [a]')])
    const after = first.flatMap((step): RosterCard[] => (step.action === 'rename' ? [{stem: step.to, text: step.text}] : step.action === 'migrate' ? [{stem: step.stem, text: step.text}] : []))
    expect(after.map((c) => c.stem)).toEqual(['architect', 'dev'])
    expect(planRosterMigration(after)).toEqual([])
  })

  it('skips a card whose YAML is broken and passes over one without frontmatter', () => {
    const steps = planRosterMigration([{stem: 'bad', text: '---\ntitle: [x\n---\nbody\n'}, {stem: 'bare', text: 'just prose\n'}])
    expect(steps).toHaveLength(1)
    expect(steps[0]).toMatchObject({action: 'skip', stem: 'bad'})
    expect((steps[0] as Extract<RosterStep, {action: 'skip'}>).reason).toMatch(/not valid YAML/)
  })
})
