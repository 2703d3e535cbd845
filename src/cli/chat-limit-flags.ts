/**
 * `mesh serve`'s limits for team turns (docs/daemon.md, Chat — limits):
 * client processes at once, turns lined up, the turn timeout, and the
 * delegation depth and fan-out (DECISIONS: Delegation — 4 and 5). Each has a
 * MESH_* variable; unset ones keep the daemon's defaults.
 */
import {Errors, Flags} from '@oclif/core'
import {DEFAULT_CHAT_LIMITS, type ChatLimits} from '../daemon/chat/constants.js'
import {MAX_COST_PER_DAY_USD} from '../daemon/chat/usage/constants.js'

/** A cost in USD: a positive decimal (`5`, `12.50`), at most MAX_COST_PER_DAY_USD. */
const usdFlag = Flags.custom<number>({
  async parse(input) {
    const value = /^\d+(\.\d+)?$/.test(input.trim()) ? Number(input) : Number.NaN
    if (!(value > 0 && value <= MAX_COST_PER_DAY_USD)) throw new Errors.CLIError(`Expected a cost in USD above 0 and at most ${MAX_COST_PER_DAY_USD} (e.g. 20 or 12.50), got ${JSON.stringify(input.slice(0, 40))}`)
    return value
  },
})

export const chatLimitFlags = {
  'max-turns': Flags.integer({description: `client processes running at once (default ${DEFAULT_CHAT_LIMITS.maxTurns})`, min: 1, max: 1000, env: 'MESH_MAX_TURNS'}),
  'max-waiting': Flags.integer({description: `turns lined up behind them before new ones answer 429 (default ${DEFAULT_CHAT_LIMITS.maxWaiting})`, min: 0, max: 100_000, env: 'MESH_MAX_WAITING'}),
  'turn-timeout': Flags.integer({description: `seconds before a turn still running is killed and recorded as failed (default ${DEFAULT_CHAT_LIMITS.turnTimeoutMs / 1000})`, min: 1, max: 24 * 3600, env: 'MESH_TURN_TIMEOUT'}),
  'delegation-depth': Flags.integer({description: `longest delegation chain (default ${DEFAULT_CHAT_LIMITS.delegationDepth})`, min: 1, max: 64, env: 'MESH_DELEGATION_DEPTH'}),
  'delegation-fan-out': Flags.integer({description: `distinct member sessions one conversation may have open requests with (default ${DEFAULT_CHAT_LIMITS.delegationFanOut})`, min: 1, max: 64, env: 'MESH_DELEGATION_FAN_OUT'}),
  'max-cost-per-day': usdFlag({description: "USD the team's clients may report spending per UTC day; once reached new turns answer 429 budget_exhausted and delegations wait (default: no limit)", env: 'MESH_MAX_COST_PER_DAY'}),
}

type ChatLimitValues = {[K in keyof typeof chatLimitFlags]?: number}

export function chatLimitsOf(flags: ChatLimitValues): Partial<ChatLimits> {
  const limits: Partial<ChatLimits> = {}
  if (flags['max-turns'] !== undefined) limits.maxTurns = flags['max-turns']
  if (flags['max-waiting'] !== undefined) limits.maxWaiting = flags['max-waiting']
  if (flags['turn-timeout'] !== undefined) limits.turnTimeoutMs = flags['turn-timeout'] * 1000
  if (flags['delegation-depth'] !== undefined) limits.delegationDepth = flags['delegation-depth']
  if (flags['delegation-fan-out'] !== undefined) limits.delegationFanOut = flags['delegation-fan-out']
  if (flags['max-cost-per-day'] !== undefined) limits.maxCostPerDay = flags['max-cost-per-day']
  return limits
}

/** The same flags as arguments, for the background process of `mesh serve --detach`. */
export function chatLimitArgs(flags: ChatLimitValues): string[] {
  return (Object.keys(chatLimitFlags) as Array<keyof typeof chatLimitFlags>).flatMap((name) => (flags[name] === undefined ? [] : [`--${name}`, String(flags[name])]))
}
