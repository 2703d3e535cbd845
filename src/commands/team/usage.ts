import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import type {UsageReport} from '../../daemon/chat/wire.js'
import {invalid, isMeshError} from '../../lib/errors.js'

export default class TeamUsage extends MeshCommand {
  static override description = `What the team's turns used: tokens, reported cost, time and tool calls, per member, per conversation and per UTC day, through the running daemon.

The sums come from the finals in .mesh/timeline/ (each carries what its client reported). A turn whose client reported nothing counts as a turn of unknown usage, and the output says how many there are. Also shows the daily budget (\`mesh serve --max-cost-per-day\`). The range is the last 7 UTC days unless --since/--until say otherwise: a date (2026-11-20; an --until date includes that day) or an ISO timestamp with its offset (2026-11-20T08:00:00Z).`

  static override examples = [
    '<%= config.bin %> team usage',
    '<%= config.bin %> team usage --since 2026-11-01 --until 2026-11-30',
    "<%= config.bin %> team usage --since 2026-11-27T08:00:00Z --json | jq '.members[] | {member, cost_usd}'",
  ]

  static override flags = {
    since: Flags.string({description: 'first day (UTC date) or instant (ISO timestamp) counted; default: 6 days before today'}),
    until: Flags.string({description: 'last day counted (UTC date, included) or the instant the range ends; default: now'}),
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(TeamUsage)
    const {parseUsageRange} = await import('../../daemon/chat/usage/range.js')
    try {
      // The daemon's own rules, checked here first: a typo is a usage error before anything is read.
      parseUsageRange({since: flags.since, until: flags.until}, Date.now())
    } catch (error) {
      if (isMeshError(error)) throw invalid('usage_bad_range', `--${error.field ?? 'since'}: ${error.message}`, {field: error.field})
      throw error
    }
    const [{connectDaemon}, {usageLines}] = await Promise.all([import('../../cli/daemon-session.js'), import('../../cli/usage-render.js')])
    const daemon = await connectDaemon(flags.dir)
    const query = new URLSearchParams()
    if (flags.since !== undefined) query.set('since', flags.since)
    if (flags.until !== undefined) query.set('until', flags.until)
    const report = await daemon.call<UsageReport>('GET', `/usage${query.size > 0 ? `?${query}` : ''}`)
    if (!this.jsonEnabled()) for (const line of usageLines(report)) this.log(line)
    return report
  }
}
