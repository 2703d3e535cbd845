/**
 * What agents say about themselves (issue 20, deliverable 4): each
 * `mesh-report` of a turn goes to the debug stream with `src: "agent"` (spec:
 * Logs and debug stream — `src` is `daemon`, `Architect IDE` or `agent`),
 * tag `agent.report`: its status and summary, as the agent wrote them. And a
 * deployer's turn that ends with a report saying done is a
 * `deploy.completed` on the timeline (spec: Logs, timeline event types),
 * carrying what a deploy report may name: `module`, `url`, `version`, `sha`.
 * A turn an outside asker could steer has no markers left by then
 * (sandbox.ts), so it reports nothing. docs/daemon.md, Agent reports.
 */
import type {DaemonContext} from '../context.js'
import {DEPLOYER} from './constants.js'
import {readReport} from './delegation/render.js'
import {reportOf, saysDone} from './resolution/resolve.js'
import type {FinalHook, TurnFinal} from './types.js'

export const AGENT_REPORT_TAG = 'agent.report'
export const DEPLOY_COMPLETED_EVENT = 'deploy.completed'
/** Longest field of a deploy report kept (a URL may be long; nothing else is). */
const DEPLOY_FIELD_MAX = 2048

/** `deploy.completed`: what the deployer's report names, each null when it does not. */
export interface DeployCompletedData {
  author: string
  text: string
  module: string | null
  url: string | null
  version: string | null
  sha: string | null
  task: string | null
  conv: string
  turn_id: string
}

const field = (value: unknown): string | null => {
  if (typeof value !== 'string') return null
  const text = value.trim()
  return text !== '' && text.length <= DEPLOY_FIELD_MAX && !/[\u0000-\u001f\u007f]/.test(text) ? text : null
}

/** Only an http(s) address is a URL anyone should follow. */
const webUrl = (value: unknown): string | null => {
  const text = field(value)
  if (text === null) return null
  try {
    const url = new URL(text)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null
  } catch {
    return null
  }
}

/** The deploy a report describes. */
export function deployOf(report: Record<string, unknown>, final: Pick<TurnFinal, 'anchor'>): Omit<DeployCompletedData, 'author' | 'text' | 'conv' | 'turn_id'> {
  return {module: field(report.module), url: webUrl(report.url), version: field(report.version), sha: field(report.sha), task: field(report.task) ?? final.anchor?.task ?? null}
}

const deployText = (deploy: ReturnType<typeof deployOf>, summary: string) => {
  const what = [deploy.module, deploy.version].filter(Boolean).join(' ')
  return `deployed${what ? ` ${what}` : ''}${deploy.url ? ` to ${deploy.url}` : ''}${!what && !deploy.url && summary ? `: ${summary}` : ''}`
}

export function agentReportsHook(context: DaemonContext): FinalHook {
  return (final) => {
    for (const marker of final.markers) {
      if (marker.kind !== 'report' || !('data' in marker)) continue
      const report = readReport(marker.data)
      context.debug.log({
        src: 'agent',
        lvl: report.outcome === 'failure' || report.outcome === 'blocked' ? 'warn' : 'info',
        tag: AGENT_REPORT_TAG,
        msg: `${final.profile}: ${report.status ?? 'no status'}${report.summary ? ` — ${report.summary}` : ''}`,
        conv: final.conv,
        agent_id: final.profile,
        data: {turn_id: final.turn_id, status: report.status, ...(report.task ? {task: report.task} : {}), ...(report.for ? {for: report.for} : {}), files: report.files.length},
      })
    }
    const last = reportOf(final)
    if (final.profile !== DEPLOYER || final.status !== 'done' || !last || !saysDone(last)) return
    const deploy = deployOf(last, final)
    context.timeline.append(DEPLOY_COMPLETED_EVENT, {author: DEPLOYER, text: deployText(deploy, readReport(last).summary), ...deploy, conv: final.conv, turn_id: final.turn_id} satisfies DeployCompletedData)
  }
}
