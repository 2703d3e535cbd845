/**
 * Usage and the daily budget (issue 19, Cost and usage; docs/daemon.md, Chat
 * — usage and budget): the numbers are our choices, the codes the wire's.
 */

/** `GET /usage` without `since`: today and the six UTC days before it. */
export const USAGE_DEFAULT_DAYS = 7
/** The longest range one `GET /usage` reads (every timeline file of it is read). */
export const USAGE_MAX_DAYS = 366
/** A held turn's budget is looked at again at least this often (and exactly at 00:00 UTC). */
export const BUDGET_RECHECK_MS = 60_000
/** 429 code of a new turn refused because the day's reported cost reached `--max-cost-per-day`. */
export const BUDGET_EXHAUSTED = 'budget_exhausted'
/** Timeline events: a turn that would have started waits for the budget; the budget freed the turns it held. */
export const BUDGET_HELD_EVENT = 'chat.budget.held'
export const BUDGET_RELEASED_EVENT = 'chat.budget.released'
/** Debug stream tag of the budget's lines. */
export const BUDGET_TAG = 'chat.budget'
/** Costs are summed in millionths of a dollar, so sums are exact (0.1 + 0.2 is 0.3). */
export const MICRO_USD = 1_000_000
/** A daily limit is dollars and cents; more than this is a typo, not a budget (also the schema's maximum). */
export const MAX_COST_PER_DAY_USD = 1_000_000
