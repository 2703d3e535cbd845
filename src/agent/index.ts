/**
 * `mesh/agent`: the agent-side kit — serve the agent contract (`createAgent`),
 * charge per call, keep the heartbeat, and call other agents.
 */
export type {Caller, CreateAgentOptions, SkillContext, SkillHandler, SkillHandlers} from './kit/types.js'
export type {GateDecision, PaidCall, PaymentChallenge, PaymentGate, PaymentHold, PaymentReceipt, TopupRequest} from './payments/types.js'
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

// The heartbeat loop and the DiscoveryCard file it sends.
export {runHeartbeat, type HeartbeatEvent, type HeartbeatOptions} from './heartbeat.js'
export {loadCardFile} from './card-file.js'
