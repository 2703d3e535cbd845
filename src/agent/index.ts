/**
 * `mesh/agent`: the agent-side kit — serve the agent contract (`createAgent`),
 * charge per call, keep the heartbeat, and call other agents.
 */
// Serving the agent contract.
export {createAgent, type Agent} from './kit/create-agent.js'
export type {Caller, CreateAgentOptions, SkillContext, SkillHandler, SkillHandlers} from './kit/types.js'
export {a2aCardFromPublicCard, type A2AAgentCard, type A2AAgentInterface, type A2AAgentSkill, type A2ACardOptions} from './a2a-card.js'
export {A2A_CARD_PATH, CORS_HEADERS, DEFAULT_BODY_LIMIT, HEALTH_PATH, PUBLIC_CARD_PATH, TOPUP_PATH, WHOAMI_PATH} from './kit/constants.js'
export type {GateDecision, PaidAnswer, PaidCall, PaymentChallenge, PaymentGate, PaymentHold, PaymentReceipt, TopupRequest} from './payments/types.js'
export {
  isPaid,
  lamportsToSol,
  skillInputSchema,
  skillPricing,
  type CardPricing,
  type CardSkill,
  type PaymentChallengeBody,
  type PaymentOffer,
  type PublicCard,
} from '../protocol/agent-card.js'

// Pay-per-call: the gate createAgent asks (402 challenges, proofs on chain, free allowance, prepaid credit).
export {createPayments, type CreatePaymentsOptions, type DepositScan, type PaymentRefusal, type Payments} from './payments/index.js'
export {checkPayment, createChainClient, isSolanaAddress, type ChainClient, type ParsedTransaction, type PaymentCheck, type PaymentCheckFailure} from './solana/index.js'
export {solanaPayUrl, type SolanaPayRequest} from '../protocol/solana-pay.js'

// Checking a card against the spec (mesh card lint).
export {lintCard, CARD_RULES, cardRule, type CardRule, type Finding as CardLintFinding, type LintOptions, type Severity as CardLintSeverity} from './card-lint/index.js'

// Running an agent from a folder (mesh agent serve): agent.json + handlers, the DiscoveryCard, registration.
export {loadAgentFolder, type AgentFolder} from './folder/index.js'
export {serveFolder, type ServeFolderOptions, type ServedFolder} from './folder/serve-folder.js'
export {discoveryCardOf, type DiscoveryCard, type DiscoveryCardOptions} from './discovery-card.js'
export {keepRegistered, type KeepRegisteredOptions, type ServedAgentEvent} from './registration.js'

// Used Mesh-Sig nonces in the agent's own SQLite (a restart replays no signed request).
export {AGENT_NONCES_MIGRATIONS, createSqliteNonceStore} from './store/mesh-sig-nonces.js'

// The heartbeat loop and the DiscoveryCard file it sends.
export {runHeartbeat, type HeartbeatEvent, type HeartbeatOptions} from './heartbeat.js'
export {loadCardFile} from './card-file.js'

// Calling an agent: sign, read a 402, retry with a proof (the client layer; also in mesh/client).
export {
  callAgent,
  createAgentCardCache,
  isTransactionSignature,
  readPaymentChallenge,
  resolveAgentUrl,
  type AgentCardCache,
  type CallAgentAnswer,
  type CallAgentOptions,
  type PaymentRequiredAnswer,
  type ResolveAgentOptions,
  type ResolvedAgent,
  type SkillAnswer,
} from '../client/agent/index.js'
export type {PaymentChallenge as ReadPaymentChallenge} from '../client/agent/index.js'
