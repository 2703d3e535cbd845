/**
 * `mesh team usage` and `mesh team budget` through the built binary, and
 * `mesh serve --max-cost-per-day` / MESH_MAX_COST_PER_DAY (issue 19, Cost and
 * usage). The finals are in the timeline before the daemon starts, as a
 * previous day of work leaves them.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {json, runCli} from '../../support/cli.js'
import {makeRepo} from '../../standard/fixtures.js'
import {serveProject, type ServedProject} from './project.js'

const DAY_MS = 24 * 60 * 60 * 1000
const today = new Date().toISOString().slice(0, 10)
const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10)

const final = (day: string, time: string, conv: string, member: string, cost: number | null, input = 100) =>
  JSON.stringify({ts: `${day}T${time}.000Z`, type: 'chat.assistant.final', author: member, text: 'x', conv, turn_id: `t-${conv}-${time}`, member, profile: member, status: 'done', exit_code: 0, src: 'daemon', ...(cost === undefined ? {} : {usage: {input_tokens: input, output_tokens: 10, cache_read_tokens: null, cache_write_tokens: null, cost_usd: cost, duration_ms: 500, tool_calls: 1}})})

let project: ServedProject
beforeAll(async () => {
  project = await serveProject(
    {
      [`.mesh/timeline/${yesterday}.jsonl`]: [final(yesterday, '10:00:00', 'c-a', 'architect', 0.25), final(yesterday, '11:00:00', 'm-developer', 'developer', 0.5, 1_000)].join('\n') + '\n',
      [`.mesh/timeline/${today}.jsonl`]: [final(today, '00:00:01', 'c-a', 'architect', 0.45), final(today, '00:00:02', 'm-developer', 'developer', null)].join('\n') + '\n' + JSON.stringify({ts: `${today}T00:00:03.000Z`, type: 'chat.assistant.final', author: 'consultant', text: '', conv: 'ask-consultant-x', member: 'consultant', status: 'done'}) + '\n',
    },
    {args: ['--max-cost-per-day', '0.45']},
  )
})
afterAll(async () => {
  await project?.stop()
})

describe('mesh team usage', () => {
  it('sums the finals per member, conversation and day, says how many turns have unknown usage, and shows the budget', async () => {
    const report = json(await project.mesh(['team', 'usage', '--json']))
    expect(report.total).toMatchObject({turns: 5, turns_without_usage: 1, turns_without_cost: 1, input_tokens: 1_300, cost_usd: 1.2})
    expect(report.members.map((m: any) => [m.member, m.turns, m.cost_usd])).toEqual([
      ['architect', 2, 0.7],
      ['consultant', 1, 0],
      ['developer', 2, 0.5],
    ])
    expect(report.days.map((d: any) => [d.day, d.cost_usd])).toEqual([
      [yesterday, 0.75],
      [today, 0.45],
    ])
    expect(report.budget).toMatchObject({max_cost_per_day: 0.45, spent_usd: 0.45, exhausted: true, day: today})

    const shown = await project.mesh(['team', 'usage', '--since', today])
    expect(shown.code, shown.stderr).toBe(0)
    const lines = shown.stdout.split('\n')
    expect(lines[0]).toMatch(new RegExp(`^${today}T00:00:00\\.000Z → .*: 3 turn\\(s\\), \\$0\\.45 reported, 200 input and 20 output tokens$`))
    expect(lines[1]).toBe('  of those turns, 1 without usage, 1 without cost: their usage is not in these sums')
    expect(lines[2]).toMatch(/^budget: \$0\.45 of \$0\.45 today \(.*\) · spent: new turns are refused until .*T00:00:00\.000Z/)
    expect(lines.find((line) => line.startsWith('MEMBER'))?.split(/\s{2,}/)).toEqual(['MEMBER', 'TURNS', 'COST', 'INPUT', 'OUTPUT', 'CACHE READ', 'CACHE WRITE', 'TOOLS', 'UNKNOWN'])
    expect(lines.find((line) => line.startsWith('developer'))?.split(/\s{2,}/)).toEqual(['developer', '1', '$0.00', '100', '10', '0', '0', '1', '1 without cost'])
    expect(lines.find((line) => line.startsWith('ask-consultant-x'))?.split(/\s{2,}/)).toEqual(['ask-consultant-x', 'consultant', '1', '$0.00', '0', '0', '0', '0', '0', '1 without usage'])
  })

  it('refuses a range it cannot read before calling the daemon (exit 2)', async () => {
    const refused = await project.mesh(['team', 'usage', '--since', 'last-week', '--json'])
    expect(refused.code).toBe(2)
    expect(JSON.parse(refused.stdout).error).toMatchObject({code: 'usage_bad_range', field: 'since'})
    expect((await project.mesh(['team', 'usage', '--since', today, '--until', yesterday])).code).toBe(2)
  })
})

describe('mesh team budget', () => {
  it('shows the budget, raises it at once and removes it', async () => {
    expect((await project.mesh(['team', 'budget'])).stdout).toMatch(/^budget: \$0\.45 of \$0\.45 today .* · spent/)
    const raised = await project.mesh(['team', 'budget', '2.50'])
    expect(raised.stdout.trim()).toBe(`budget: $0.45 of $2.50 today (${today}, UTC) · open`)
    expect(json(await project.mesh(['team', 'budget', 'off', '--json']))).toMatchObject({max_cost_per_day: null, exhausted: false})
    expect((await project.mesh(['team', 'budget'])).stdout.trim()).toBe(`budget: no daily limit (today ${today}: $0.45 reported)`)
    const bad = await project.mesh(['team', 'budget', 'lots'])
    expect([bad.code, bad.errorText]).toEqual([2, expect.stringMatching(/a cost in USD above 0/)])
  })
})

describe('mesh serve --max-cost-per-day', () => {
  it('takes MESH_MAX_COST_PER_DAY, and refuses a limit that is not a positive cost', async () => {
    const served = await serveProject({}, {env: {MESH_MAX_COST_PER_DAY: '12.5'}})
    try {
      expect(json(await served.mesh(['team', 'budget', '--json']))).toMatchObject({max_cost_per_day: 12.5, spent_usd: 0, exhausted: false})
    } finally {
      await served.stop()
    }
    const repo = makeRepo()
    try {
      const refused = await runCli(['serve', '--port', '0', '--max-cost-per-day', '0'], {cwd: repo.root})
      expect([refused.code, refused.errorText]).toEqual([2, expect.stringMatching(/a cost in USD above 0/)])
    } finally {
      repo.cleanup()
    }
  })
})
