/**
 * The daily budget (issue 19, Cost and usage; docs/daemon.md, Chat — usage
 * and budget): `mesh serve --max-cost-per-day <usd>` (MESH_MAX_COST_PER_DAY)
 * caps the cost the team's clients report per UTC day. Once the day's
 * reported cost reaches it, new turns are refused (429 `budget_exhausted`)
 * and turns already accepted — delegation briefs, wakes, queued items —
 * wait, never lost: they run when the day turns or the limit is raised
 * (`PUT /usage/budget`). The day's cost is today's finals as the timeline
 * holds them, read once at start and then added up as finals go out; a
 * final whose client reports no cost adds nothing.
 */
import {invalid, rateLimited, type MeshError} from '../../../lib/errors.js'
import type {DaemonContext} from '../../context.js'
import {utcDay} from '../../timeline.js'
import {BUDGET_EXHAUSTED, BUDGET_RECHECK_MS, BUDGET_TAG, MAX_COST_PER_DAY_USD, MICRO_USD} from './constants.js'
import {startOfUtcDay} from './range.js'
import {readFinals} from './read.js'
import {toMicroUsd, usageOf} from './sum.js'

const DAY_MS = 24 * 60 * 60 * 1000

/** `GET /usage` `budget` and `PUT /usage/budget`'s answer. */
export interface BudgetState {
  /** The limit in USD, null when there is none. */
  max_cost_per_day: number | null
  /** The UTC day counted. */
  day: string
  /** What the finals of that day reported, in USD. */
  spent_usd: number
  exhausted: boolean
  /** When the count starts again: the next 00:00 UTC. */
  resets_at: string
}

export interface Budget {
  /** Reads today's finals from the timeline, then follows the finals as they go out. */
  start(): Promise<void>
  close(): void
  /** The day's reported cost reached the limit (there is one). */
  exhausted(): boolean
  /** The refusal of a new turn while exhausted: 429 `budget_exhausted`, Retry-After until 00:00 UTC. */
  refusal(): MeshError
  state(): BudgetState
  /** A new limit (null: none), effective at once; held turns run if it is no longer reached. */
  setLimit(usd: number | null): BudgetState
  /** Called each time the budget stops being exhausted (a new day, a higher limit). */
  onRelease(listener: () => void): () => void
}

/** A limit as given (flag, env, route body): a positive number of dollars, or null for none. */
export function checkLimit(value: unknown, field = 'max_cost_per_day'): number | null {
  if (value === null) return null
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_COST_PER_DAY_USD) {
    throw invalid('invalid_body', `${field} is a cost in USD above 0 and at most ${MAX_COST_PER_DAY_USD} (null: no limit)`, {field})
  }
  return value
}

const dollars = (micro: number) => micro / MICRO_USD

export function createBudget(context: Pick<DaemonContext, 'clock' | 'events' | 'debug' | 'meshPath'>, initialLimit: number | null): Budget {
  let limitMicro = initialLimit === null ? null : toMicroUsd(initialLimit)
  /** Reported cost per UTC day, in millionths of a dollar; only today's is kept. */
  const spent = new Map<string, number>()
  const listeners = new Set<() => void>()
  let wasExhausted = false
  let timer: NodeJS.Timeout | null = null
  let unsubscribe: (() => void) | null = null
  let closed = false

  const today = () => utcDay(context.clock())
  const spentToday = () => spent.get(today()) ?? 0
  const isExhausted = () => limitMicro !== null && spentToday() >= limitMicro
  const resetsAt = () => startOfUtcDay(context.clock()) + DAY_MS

  const add = (day: string, micro: number) => {
    spent.set(day, (spent.get(day) ?? 0) + micro)
    for (const known of spent.keys()) if (known < today()) spent.delete(known)
  }

  /** Says a change of state: reached (a debug line, and the timer that notices the next day) or released (the listeners). */
  function check() {
    if (closed) return
    const now = isExhausted()
    if (now && !wasExhausted) {
      context.debug.log({lvl: 'warn', tag: BUDGET_TAG, msg: `today's reported cost $${dollars(spentToday())} reached the limit of $${dollars(limitMicro ?? 0)} per day: new turns are refused until 00:00 UTC or the limit is raised; accepted ones wait`})
    }
    if (!now && wasExhausted) {
      context.debug.log({lvl: 'info', tag: BUDGET_TAG, msg: `the budget is open again (today's cost $${dollars(spentToday())}, limit ${limitMicro === null ? 'none' : `$${dollars(limitMicro)}`}): held turns run`})
    }
    const released = wasExhausted && !now
    wasExhausted = now
    arm()
    if (released) for (const listener of [...listeners]) listener()
  }

  /** While exhausted, looks again at 00:00 UTC by the daemon's clock (and at least every minute, should the clock jump). */
  function arm() {
    if (timer) clearTimeout(timer)
    timer = null
    if (closed || !wasExhausted) return
    const delay = Math.max(1, Math.min(BUDGET_RECHECK_MS, resetsAt() - context.clock()))
    timer = setTimeout(check, delay)
    timer.unref()
  }

  const state = (): BudgetState => ({
    max_cost_per_day: limitMicro === null ? null : dollars(limitMicro),
    day: today(),
    spent_usd: dollars(spentToday()),
    exhausted: isExhausted(),
    resets_at: new Date(resetsAt()).toISOString(),
  })

  return {
    async start() {
      const from = startOfUtcDay(context.clock())
      await readFinals(context, {since: from, until: from + DAY_MS}, (final) => {
        if (final.usage?.cost_usd != null) add(final.ts.slice(0, 10), toMicroUsd(final.usage.cost_usd))
      })
      // The daemon writes every final itself: from now on each one is added as it goes out.
      unsubscribe = context.events.subscribe((event) => {
        if (event.type !== 'chat.assistant.final') return
        const cost = usageOf((event.data as {usage?: unknown}).usage)?.cost_usd
        if (cost == null || cost === 0) return
        add(utcDay(Date.parse(event.ts)), toMicroUsd(cost))
        check()
      })
      check()
    },
    close() {
      closed = true
      unsubscribe?.()
      if (timer) clearTimeout(timer)
      listeners.clear()
    },
    exhausted: isExhausted,
    refusal() {
      const waitSeconds = Math.ceil((resetsAt() - context.clock()) / 1000)
      return rateLimited(
        `Today's reported cost ($${dollars(spentToday())}) reached the daemon's limit of $${dollars(limitMicro ?? 0)} per day: no new turn starts until 00:00 UTC or the limit is raised (\`mesh team budget <usd>\`); delegations and queued items wait and run then`,
        waitSeconds,
        BUDGET_EXHAUSTED,
      )
    },
    state,
    setLimit(usd) {
      limitMicro = usd === null ? null : toMicroUsd(usd)
      context.debug.log({lvl: 'info', tag: BUDGET_TAG, msg: `the daily limit is now ${usd === null ? 'none' : `$${usd}`}`})
      check()
      return state()
    },
    onRelease(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
}
