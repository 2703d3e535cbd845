/**
 * `GET /usage`, `GET /usage/budget` and `PUT /usage/budget` (issue 19, Cost and usage; docs/
 * daemon-api.md, Usage). Both need the portal token: usage names the
 * conversations and what the team spends.
 */
import {assertValid} from '../../../lib/schemas.js'
import type {DaemonContext} from '../../context.js'
import type {Route} from '../../route-table.js'
import type {Engine} from '../engine.js'
import {checkLimit, type Budget, type BudgetState} from './budget.js'
import {parseUsageRange} from './range.js'
import {readFinals} from './read.js'
import {createUsageSums, type UsageSums} from './sum.js'

/** `GET /usage`. */
export type UsageReport = UsageSums & {
  since: string
  until: string
  /** The daily budget now, and the conversations it holds. */
  budget: BudgetState & {held_turns: number}
  /** Timeline files that could not be read (a link, not a regular file). */
  warnings: string[]
}

export function usageRoutes(context: DaemonContext, engine: Engine, budget: Budget): Route[] {
  const budgetNow = () => ({...budget.state(), held_turns: engine.heldTurns()})
  return [
    {
      method: 'GET',
      path: '/usage',
      auth: 'portal',
      async handle({query}): Promise<UsageReport> {
        const range = parseUsageRange(query, context.clock())
        const sums = createUsageSums()
        const {warnings} = await readFinals(context, range, (final) => sums.add(final))
        return {since: new Date(range.since).toISOString(), until: new Date(range.until).toISOString(), ...sums.sums(), budget: budgetNow(), warnings}
      },
    },
    {method: 'GET', path: '/usage/budget', auth: 'portal', handle: budgetNow},
    {
      method: 'PUT',
      path: '/usage/budget',
      auth: 'portal',
      async handle(request) {
        const body = assertValid<{max_cost_per_day: number | null}>('daemon-usage-budget', await request.body())
        budget.setLimit(checkLimit(body.max_cost_per_day))
        return budgetNow()
      },
    },
  ]
}
