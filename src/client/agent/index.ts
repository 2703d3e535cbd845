/**
 * Calling an agent (docs/agent-call.md): resolve an id or URL, call a skill
 * signed with Mesh-Sig, read a 402 and retry with a proof. Re-exported by
 * `mesh/agent`; loads no server code.
 */
export {callAgent, skillUrl, type CallAgentAnswer, type CallAgentOptions, type PaymentRequiredAnswer, type SkillAnswer} from './call-agent.js'
export {isTransactionSignature} from './transaction-signature.js'
export {payUriProblem, readPaymentChallenge, solToLamports, type PaymentChallenge} from './challenge.js'
export {solanaPayUrl, type SolanaPayRequest} from '../../protocol/solana-pay.js'
export {challengeJson, formatChallenge, type ChallengeTextOptions} from './challenge-format.js'
export {createAgentCardCache, resolveAgentUrl, type AgentCardCache, type ResolveAgentOptions, type ResolvedAgent} from './resolve.js'
export {CALL_TIMEOUT_MS, RESOLVE_TIMEOUT_MS} from './constants.js'
