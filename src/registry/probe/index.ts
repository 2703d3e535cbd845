/** The prober: operational, card_match and the cached PublicCard of every online agent. */
export {createProbePart, type ProbePart, type ProbePartOptions} from './part.js'
export {createProber, type PassSummary, type Prober, type ProberOptions} from './prober.js'
export {probeAgent, aggregateCardMatch, cardHash, type AgentProbe, type HealthReading, type ProbeFetch, type ProbeTarget, type SkillProbe} from './probe-agent.js'
export {cardMatchPlan, checkPublicCard, countPresent, isPaid, jsonExampleBodies, readPath, skillBaseUrl, type CardMatchPlan, type PublicCard} from './public-card.js'
export * as probeConstants from './constants.js'
