import {Args} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {shown} from '../../client/printable.js'
import {MeshError} from '../../lib/errors.js'
import {PUBLIC_CARD_PATH} from '../../protocol/agent-card.js'
import type {AgentProbe, SkillProbe} from '../../registry/probe/index.js'

/** What `--json` prints: the probe result the registry would save, and the address probed. */
export interface CardProbeReport extends AgentProbe {
  endpoint: string
}

/** An agent's base address from the argument; a card URL (`…/.well-known/agent.json`) is taken back to its agent. */
function endpointOf(raw: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    url = new URL('invalid:')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new MeshError('invalid', 'usage_card_probe_url', `The agent address must be an http(s) URL such as https://agent.example, got "${shown(raw.slice(0, 200))}"`)
  const base = url.href.split(/[?#]/)[0]
  return base.endsWith(PUBLIC_CARD_PATH) ? base.slice(0, -PUBLIC_CARD_PATH.length) : base.replace(/\/+$/, '')
}

const yesNo = (value: boolean | null, unknown: string) => (value === null ? unknown : value ? 'yes' : 'no')

/** Whether the registry would record the agent as healthy: card read, live, every skill answering, every card_match full. */
function allGood(probe: AgentProbe): boolean {
  const full = (match: string | null | undefined) => {
    const parts = match ? /^(\d+)\/(\d+)$/.exec(match) : null
    return !parts || parts[1] === parts[2]
  }
  return probe.card_error === null && probe.operational === true && probe.live_check.ok === true && probe.skills.every((skill) => full(skill.card_match))
}

/** One row per skill: id, answer, card_match, URL, in aligned columns. */
function skillRows(skills: readonly SkillProbe[]): string[] {
  const cells = skills.map((skill) => [
    shown(skill.id),
    skill.answering === null ? 'not probed' : `${skill.answering ? 'answering' : 'not answering'} (${shown(skill.status ?? skill.error ?? 'no answer')})`,
    `card_match ${skill.card_match ?? (skill.card_match_skipped ? `skipped: ${skill.card_match_skipped}` : '— (no returns)')}`,
    shown(skill.url),
  ])
  const widths = [0, 1, 2].map((column) => Math.max(...cells.map((row) => row[column].length)))
  return cells.map((row) => `  ${row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]) : cell)).join('  ')}`)
}

/**
 * `mesh card probe <url>`: the registry's own prober (probeAgent, the code
 * the registry runs, not a copy) against one agent, printed. Loopback and
 * private addresses are allowed: the author probes their own agent.
 */
export default class CardProbe extends MeshCommand {
  static override description = `Probe a running agent the way the registry does, and print what it would record.

Runs the registry's prober against the agent at <url>: fetches its PublicCard from <url>/.well-known/agent.json and validates it, reads GET /health (without one, liveness comes from the card's availability.now), POSTs {} to every skill (answering = anything but 404, 405 or 5xx: operational when all answer) and, for free skills with returns, POSTs the JSON examples of the card and counts the returns paths present (card_match). Private and loopback addresses are allowed.

Exit codes: 0 the registry would record the agent as fully healthy (card read, live, operational, every card_match n/n), 1 anything less (the output says what), 2 a bad URL.`

  static override examples = ['<%= config.bin %> card probe http://127.0.0.1:8080', '<%= config.bin %> card probe https://agent.example --json']

  static override args = {
    url: Args.string({description: "the agent's base address (or its card URL)", required: true}),
  }

  async run() {
    const {args} = await this.parse(CardProbe)
    const endpoint = endpointOf(args.url)
    const [{probeAgent, probeConstants}, {safeFetch}] = await Promise.all([import('../../registry/probe/index.js'), import('../../http/safe-fetch.js')])
    // The prober's fetch, bound as src/registry/probe/part.ts binds it, with private addresses allowed.
    const fetch: Parameters<typeof probeAgent>[1]['fetch'] = (url, init) =>
      safeFetch(url, {...init, allowPrivate: true, timeoutMs: probeConstants.PROBE_REQUEST_TIMEOUT_MS, maxBytes: probeConstants.PROBE_MAX_BYTES})
    const probe = await probeAgent({agentId: 'card-probe', endpoint, discoveryCard: null, lastCard: null}, {fetch, now: Date.now})
    const report: CardProbeReport = {endpoint, ...probe}
    if (!allGood(probe)) process.exitCode = 1
    if (this.jsonEnabled()) return report

    const card = probe.card as {name?: unknown; version?: unknown} | null
    const health = probe.health
    const live =
      health?.source === 'availability'
        ? `${yesNo(health.live, 'unknown')} (no /health: from availability.now)`
        : `${yesNo(health?.live ?? null, 'unknown')} (GET /health ${health?.status ?? 'failed'}${health?.error ? `: ${shown(health.error)}` : `, ok: ${health?.ok}`})`
    const rows: Array<[string, string]> = [
      ['agent', endpoint],
      ['card', probe.card_error ? shown(probe.card_error.reason) : `ok (${shown(card?.name)} ${shown(card?.version)}, ${probe.skills.length} skill${probe.skills.length === 1 ? '' : 's'})`],
      ['live', live],
      ['operational', yesNo(probe.operational, 'unknown (no skills)')],
      ['card_match', probe.card_match ?? '— (no free skill with returns was content-probed)'],
    ]
    for (const [label, value] of rows) this.log(`${label.padEnd(12)} ${shown(value)}`)
    if (probe.skills.length > 0) {
      this.log('\nskills')
      for (const row of skillRows(probe.skills)) this.log(row)
    }
    return report
  }
}
