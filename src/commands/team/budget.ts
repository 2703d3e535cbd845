import {Args} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import type {BudgetState} from '../../daemon/chat/wire.js'
import {MAX_COST_PER_DAY_USD} from '../../daemon/chat/usage/constants.js'
import {invalid} from '../../lib/errors.js'

export default class TeamBudget extends MeshCommand {
  static override description = `Show or change the daily budget of the running daemon: the most the team's clients may report spending per UTC day.

Without an argument, shows the limit, what today's finals reported and whether new turns are refused. With <usd> (or \`off\`), changes the limit at once, until the daemon stops (\`mesh serve --max-cost-per-day\` or MESH_MAX_COST_PER_DAY sets it at start). Once today's reported cost reaches the limit, new turns answer 429 budget_exhausted and delegations, wakes and queued items wait; raising the limit above today's cost (or \`off\`) lets them run at once, and so does the next UTC day.`

  static override examples = ['<%= config.bin %> team budget', '<%= config.bin %> team budget 25', '<%= config.bin %> team budget off']

  static override args = {
    usd: Args.string({description: `the new limit in USD (above 0, at most ${MAX_COST_PER_DAY_USD}), or off for none`}),
  }

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TeamBudget)
    const limit = args.usd === undefined ? undefined : limitOf(args.usd)
    const [{connectDaemon}, {budgetLine}] = await Promise.all([import('../../cli/daemon-session.js'), import('../../cli/usage-render.js')])
    const daemon = await connectDaemon(flags.dir)
    const budget =
      limit === undefined
        ? await daemon.call<BudgetState & {held_turns: number}>('GET', '/usage/budget')
        : await daemon.call<BudgetState & {held_turns: number}>('PUT', '/usage/budget', {max_cost_per_day: limit})
    if (!this.jsonEnabled()) this.log(budgetLine(budget))
    return budget
  }
}

function limitOf(raw: string): number | null {
  if (raw.trim().toLowerCase() === 'off') return null
  const value = /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : Number.NaN
  if (value > 0 && value <= MAX_COST_PER_DAY_USD) return value
  throw invalid('usage_bad_budget', `The budget is a cost in USD above 0 and at most ${MAX_COST_PER_DAY_USD} (e.g. 20 or 12.50), or off; got ${JSON.stringify(raw.slice(0, 40))}`, {field: 'usd'})
}
