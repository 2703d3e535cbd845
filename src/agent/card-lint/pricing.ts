/** The pricing rules (spec Pricing; DECISIONS: Paid calls), for the card's pricing and a skill's own. */
import {isObject, quote, type Findings} from './collector.js'
import {KNOWN_CURRENCIES, NETWORK_PATTERN} from './constants.js'

export function checkPricing(pricing: unknown, at: string, out: Findings): void {
  if (!isObject(pricing)) return // card-schema reports a missing or non-object pricing
  const {amount, currency, network} = pricing
  if (typeof amount === 'number' && (!Number.isFinite(amount) || amount < 0)) out.add('pricing-amount', `${at}/amount`, `${amount} is negative; use 0 for free`)
  const lamports = currency === 'lamports'
  if (lamports && typeof amount === 'number' && amount >= 0 && !Number.isInteger(amount))
    out.add('pricing-lamports-integer', `${at}/amount`, `${amount} is not a whole number of lamports (1 SOL = 1,000,000,000 lamports)`)
  if (typeof currency === 'string') {
    if (!(KNOWN_CURRENCIES as readonly string[]).includes(currency))
      out.add('pricing-currency', `${at}/currency`, `${quote(currency)} is not one of the currencies the spec uses (${KNOWN_CURRENCIES.join(', ')}); the mesh kit charges only lamports`)
    else if (currency === 'free' && typeof amount === 'number' && amount > 0)
      out.add('pricing-currency', `${at}/currency`, `"free" with amount ${amount}: callers will read the skill as free; use amount 0, or the currency you charge in`)
  }
  if (typeof network === 'string' && !NETWORK_PATTERN.test(network))
    out.add('pricing-network', `${at}/network`, `${quote(network)} is not <chain> (main network) or <chain>-devnet (test network), e.g. "solana" or "solana-devnet"`)
  if (network === undefined && lamports && typeof amount === 'number' && amount > 0)
    out.add('pricing-network', at, 'a price in lamports without a network: callers cannot tell a test network from the main one; add e.g. "network": "solana-devnet"')
}
