/** The agent kit: serve the agent contract (`createAgent`). The lead re-exports it from mesh/agent (src/agent/index.ts). */
export {createAgent, type Agent} from './create-agent.js'
export {a2aCardFromPublicCard, type A2AAgentCard, type A2AAgentInterface, type A2AAgentSkill, type A2ACardOptions} from '../a2a-card.js'
export {
  A2A_CARD_PATH,
  CORS_HEADERS,
  DEFAULT_BODY_LIMIT,
  HEALTH_PATH,
  PUBLIC_CARD_PATH,
  TOPUP_PATH,
  WHOAMI_PATH,
} from './constants.js'
export type {Caller, CreateAgentOptions, SkillContext, SkillHandler, SkillHandlers} from './types.js'
