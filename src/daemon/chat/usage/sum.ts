/**
 * Summing what finals report (issue 19, Cost and usage): per member, per
 * conversation and per UTC day. A final without `usage` (written before
 * usage was recorded, or by a client that reports nothing) counts as a turn
 * of unknown usage; a reported field that is not a number counts as not
 * reported. Costs are added in millionths of a dollar so the sums are exact.
 * Pure: src/daemon/chat/usage/read.ts feeds it the timeline's finals.
 */
import type {TurnUsage} from '../types.js'
import {MICRO_USD} from './constants.js'

/** The sums of a group of finals (`GET /usage`; docs/daemon-api.md, Usage). */
export interface UsageTotals {
  /** Finals counted. */
  turns: number
  /** Finals that carry no `usage`: their tokens and cost are unknown. */
  turns_without_usage: number
  /** Finals whose `usage` reports no cost (`cost_usd: null`): a client that reports tokens only. */
  turns_without_cost: number
  input_tokens: number
  output_tokens: number
  cache_read_tokens: number
  cache_write_tokens: number
  cost_usd: number
  duration_ms: number
  tool_calls: number
}

export type MemberUsage = UsageTotals & {member: string}
export type ConvUsage = UsageTotals & {conv: string; member: string}
export type DayUsage = UsageTotals & {day: string}

/** What a final line must hold to be counted. */
export interface FinalLine {
  ts: string
  conv: string
  member: string
  usage: TurnUsage | null
}

const COUNTED = ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'duration_ms', 'tool_calls'] as const

/** A count as reported: a finite number ≥ 0, else not reported. */
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null)

/**
 * The `usage` of a timeline final, or null when it has none. Fields that are
 * not counts become null, so a hand-edited line cannot turn a sum into NaN.
 */
export function usageOf(value: unknown): TurnUsage | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null
  const raw = value as Record<string, unknown>
  return {
    input_tokens: count(raw.input_tokens),
    output_tokens: count(raw.output_tokens),
    cache_read_tokens: count(raw.cache_read_tokens),
    cache_write_tokens: count(raw.cache_write_tokens),
    cost_usd: count(raw.cost_usd),
    duration_ms: count(raw.duration_ms) ?? 0,
    tool_calls: count(raw.tool_calls) ?? 0,
  }
}

/** A cost in millionths of a dollar (what is added), from dollars. */
export const toMicroUsd = (usd: number) => Math.round(usd * MICRO_USD)

interface Running {
  turns: number
  turns_without_usage: number
  turns_without_cost: number
  counts: Record<(typeof COUNTED)[number], number>
  microUsd: number
}

const empty = (): Running => ({turns: 0, turns_without_usage: 0, turns_without_cost: 0, counts: {input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, duration_ms: 0, tool_calls: 0}, microUsd: 0})

function add(running: Running, usage: TurnUsage | null) {
  running.turns++
  if (!usage) {
    running.turns_without_usage++
    return
  }
  for (const field of COUNTED) running.counts[field] += usage[field] ?? 0
  if (usage.cost_usd === null) running.turns_without_cost++
  else running.microUsd += toMicroUsd(usage.cost_usd)
}

const totalsOf = (running: Running): UsageTotals => ({
  turns: running.turns,
  turns_without_usage: running.turns_without_usage,
  turns_without_cost: running.turns_without_cost,
  ...running.counts,
  cost_usd: running.microUsd / MICRO_USD,
})

const byKey = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

/** The sums of finals, grouped. */
export interface UsageSums {
  total: UsageTotals
  members: MemberUsage[]
  convs: ConvUsage[]
  days: DayUsage[]
}

/** Adds finals one by one (the timeline is read as a stream), then gives the sums, each list in key order. */
export function createUsageSums() {
  const total = empty()
  const members = new Map<string, Running>()
  const convs = new Map<string, {member: string; running: Running}>()
  const days = new Map<string, Running>()
  const at = <K>(map: Map<K, Running>, key: K) => {
    let running = map.get(key)
    if (!running) map.set(key, (running = empty()))
    return running
  }
  return {
    add(final: FinalLine) {
      add(total, final.usage)
      add(at(members, final.member), final.usage)
      let conv = convs.get(final.conv)
      if (!conv) convs.set(final.conv, (conv = {member: final.member, running: empty()}))
      add(conv.running, final.usage)
      add(at(days, final.ts.slice(0, 10)), final.usage)
    },
    sums(): UsageSums {
      return {
        total: totalsOf(total),
        members: byKey(members).map(([member, running]) => ({member, ...totalsOf(running)})),
        convs: byKey(convs).map(([conv, {member, running}]) => ({conv, member, ...totalsOf(running)})),
        days: byKey(days).map(([day, running]) => ({day, ...totalsOf(running)})),
      }
    },
  }
}
