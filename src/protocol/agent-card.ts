/**
 * The agent contract's card and payment rules both ends check (spec:
 * registry-and-agent-contract.md, PublicCard, Skill, Pricing, Payment
 * challenge; DECISIONS: Paid calls, CORS for agents). The registry's prober,
 * the agent kit, `mesh card lint` and `mesh call` read them from here.
 */

export interface CardPricing {
  unit?: string
  amount?: number
  currency?: string
  network?: string
  [extra: string]: unknown
}

export interface CardSkill {
  id: string
  name?: string
  description?: string
  examples?: string[]
  inputSchema?: Record<string, unknown>
  input_schema?: Record<string, unknown>
  outputSchema?: Record<string, unknown>
  output_schema?: Record<string, unknown>
  returns?: string[]
  probe?: boolean
  tags?: string[]
  /** Not in the spec's Skill table; honoured when an agent prices skills one by one. */
  pricing?: CardPricing
  [extra: string]: unknown
}

/** spec PublicCard: served by the agent at `GET /.well-known/agent.json`. */
export interface PublicCard {
  name: string
  url: string
  version: string
  description: string
  defaultInputModes: string[]
  defaultOutputModes: string[]
  protocols: string[]
  pricing: CardPricing
  availability: {now: boolean; window_hours?: number; sla?: string; [extra: string]: unknown}
  skills: CardSkill[]
  contact?: Record<string, string>
  documentationUrl?: string
  [extra: string]: unknown
}

/** spec Agent side: where an agent serves its PublicCard, under its `url`. */
export const PUBLIC_CARD_PATH = '/.well-known/agent.json'
/** spec Agent side: every skill is `POST /v1/<skill-id>` under the agent's `url`. */
export const SKILL_PATH_PREFIX = '/v1/'

/** spec Payment challenge: the native coin an offer's `asset` names; its amounts are in lamports. */
export const NATIVE_ASSET = 'SOL'
/** spec Payment challenge: 1 native coin = 1,000,000,000 lamports. */
export const LAMPORTS_PER_SOL = 1_000_000_000n
export const X402_VERSION = 1

/** spec Pay-per-call wire flow: the four challenge headers and the proof header. */
export const PAYMENT_HEADERS = {
  network: 'X-Payment-Network',
  address: 'X-Payment-Address',
  amount: 'X-Payment-Amount',
  nonce: 'X-Payment-Nonce',
} as const
export const PAYMENT_PROOF_HEADER = 'X-Payment-Proof'

/** spec Payment challenge: one offer of the 402 body. */
export interface PaymentOffer {
  scheme: 'exact'
  network: string
  /** The skill path, e.g. `/v1/translate`. */
  resource: string
  payTo: string
  /** The native coin symbol, e.g. `SOL`. */
  asset: string
  /** Integer lamports, as a string. */
  lamports: string
  nonce: string
  /** DECISIONS: a Solana Pay URI `solana:<address>?amount=<SOL>&memo=<nonce>&label=…`. */
  chainPayUrl: string
}

/** spec Payment challenge: the body of a 402. */
export interface PaymentChallengeBody {
  x402Version: typeof X402_VERSION
  accepts: PaymentOffer[]
  hint: string
}

/** The pricing that applies to a skill: its own when it has one, else the card's. */
export function skillPricing(skill: CardSkill, card: Pick<PublicCard, 'pricing'>): CardPricing {
  const own = skill.pricing
  return own && typeof own === 'object' && !Array.isArray(own) ? own : card.pricing
}

/** DECISIONS: a skill is paid when its pricing `amount > 0` and `currency` is not `free`. */
export function isPaid(pricing: CardPricing | undefined): boolean {
  if (!pricing || typeof pricing.amount !== 'number') return false
  return pricing.amount > 0 && String(pricing.currency ?? '').toLowerCase() !== 'free'
}

/** spec Skill: the input schema under either spelling (`inputSchema` wins when both are there). */
export function skillInputSchema(skill: CardSkill): Record<string, unknown> | undefined {
  const schema = skill.inputSchema ?? skill.input_schema
  return schema && typeof schema === 'object' && !Array.isArray(schema) ? schema : undefined
}

/** The examples of a skill that are literal JSON objects (natural-language asks are not bodies). */
export function jsonExampleBodies(examples: readonly string[] | undefined): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = []
  for (const example of examples ?? []) {
    const text = typeof example === 'string' ? example.trim() : ''
    if (!text.startsWith('{')) continue
    try {
      const body: unknown = JSON.parse(text)
      if (body && typeof body === 'object' && !Array.isArray(body)) bodies.push(body as Record<string, unknown>)
    } catch {
      // prose that happens to start with a brace
    }
  }
  return bodies
}

/** Lamports as SOL for people (`1500000` → `0.0015`), exact: no float rounding. */
export function lamportsToSol(lamports: bigint | string | number): string {
  const value = BigInt(lamports)
  const whole = value / LAMPORTS_PER_SOL
  const fraction = (value % LAMPORTS_PER_SOL).toString().padStart(9, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : `${whole}`
}
