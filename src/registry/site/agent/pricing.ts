/**
 * Prices in words for people: lamports with their SOL value, USD, free; the
 * free daily allowance when the card states one. Pricing is declarative
 * (spec Pricing): the agent, not the registry, charges.
 */
import {isPaid, lamportsToSol, type CardPricing} from '../../../protocol/agent-card.js'

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The pricing object of a card or skill when it has the spec's shape, else undefined. */
export function pricingOf(value: unknown): CardPricing | undefined {
  return isRecord(value) ? (value as CardPricing) : undefined
}

/** "1500000 lamports (0.0015 SOL) per request on solana-devnet", "free", "0.02 USD per image". */
export function priceText(pricing: CardPricing | undefined): string {
  if (!pricing) return 'not stated'
  if (!isPaid(pricing)) return 'free'
  const amount = pricing.amount as number
  const currency = String(pricing.currency ?? '')
  let price = `${amount} ${currency}`
  if (currency.toLowerCase() === 'lamports' && Number.isSafeInteger(amount)) price = `${amount} lamports (${lamportsToSol(amount)} SOL)`
  const unit = typeof pricing.unit === 'string' && pricing.unit ? ` per ${pricing.unit}` : ''
  const network = typeof pricing.network === 'string' && pricing.network ? ` on ${pricing.network}` : ''
  return price + unit + network
}

/**
 * The free calls per caller per day when the pricing states them
 * (`free_per_day`, or `freePerDay` as the kit's option is spelled): the spec
 * has no field for it (mesh reads these two; otherwise the skill's
 * description is where an agent says it). Null when not stated.
 */
export function freePerDay(pricing: CardPricing | undefined): number | null {
  for (const key of ['free_per_day', 'freePerDay']) {
    const value = pricing?.[key]
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value
  }
  return null
}

/** One line on the free allowance of a paid price; null for a free one. */
export function allowanceText(pricing: CardPricing | undefined): string | null {
  if (!isPaid(pricing)) return null
  const free = freePerDay(pricing)
  if (free === null) return "free calls per day: not stated on the card (the skill's description may say; a 402 answer tells when they are used up)"
  return free === 0 ? 'no free calls: every call is paid' : `${free} free call${free === 1 ? '' : 's'} per caller per day, then paid`
}
