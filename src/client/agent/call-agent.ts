/**
 * Calling an agent's skill (spec: Agent side `POST /v1/<skill-id>`,
 * Authentication 2, 5, 6; Pay-per-call wire flow): the body is sent as JSON,
 * signed with `Mesh-Sig` over exactly the bytes sent, with the payment proof
 * and the caller's own provider credential when given. A 402 is an answer —
 * the checked challenge comes back for the caller to pay and retry — while
 * any other refusal is a MeshError with the agent's code and message.
 * Importing this file loads nothing heavy.
 */
import type {KeyObject} from 'node:crypto'
import {signRequest} from '../../identity/mesh-sig.js'
import {MeshError} from '../../lib/errors.js'
import {PAYMENT_PROOF_HEADER, SKILL_PATH_PREFIX} from '../../protocol/agent-card.js'
import {errorFromResponse, MAX_ANSWER_BYTES, readCapped, unreachableReason} from '../http-json.js'
import {printable} from '../printable.js'
import {readPaymentChallenge, type PaymentChallenge} from './challenge.js'
import {CALL_TIMEOUT_MS, SKILL_ID_PATTERN} from './constants.js'
import {isTransactionSignature} from './transaction-signature.js'

export interface CallAgentOptions {
  /** The agent's base URL (its card's `url`); a base path and a query are kept. */
  agent: string
  /** The skill id: the call goes to `POST <agent>/v1/<skill>`. */
  skill: string
  /** The JSON body (default `{}`). */
  input?: unknown
  /** Sign with this Ed25519 private key (PKCS#8 PEM or KeyObject); unsigned without it. */
  privateKey?: string | KeyObject
  /** A transaction signature paying an earlier challenge: sent as `X-Payment-Proof`. */
  proof?: string
  /** The caller's own provider credential for bring-your-own-key skills: sent as `Authorization: Bearer`, never shown. */
  credential?: string
  fetch?: typeof fetch
  /** Default 60 s. */
  timeoutMs?: number
  /** Largest answer accepted (default 64 MiB). */
  maxAnswerBytes?: number
}

interface AnswerCommon {
  /** The URL that was called. */
  url: string
  /** The public key (base64) the call was signed with; null when unsigned. */
  signer: string | null
  httpStatus: number
  /** The answer's headers, names in lower case. */
  headers: Record<string, string>
}

/** The skill ran: its JSON answer (null for an empty body). */
export interface SkillAnswer extends AnswerCommon {
  status: 'ok'
  result: unknown
}

/** The agent wants payment (or refused the proof sent): the checked challenge. */
export interface PaymentRequiredAnswer extends AnswerCommon {
  status: 'payment_required'
  challenge: PaymentChallenge
  /** True when a proof was sent and the agent answered with a fresh challenge (its hint says why). */
  proofRefused: boolean
}

export type CallAgentAnswer = SkillAnswer | PaymentRequiredAnswer

/**
 * `POST <agent>/v1/<skill>`: the agent URL's path and query are kept
 * (DECISIONS Mesh-Sig: the signed path includes the query string).
 */
export function skillUrl(agent: string, skill: string): URL {
  if (!SKILL_ID_PATTERN.test(skill)) throw new MeshError('invalid', 'invalid_skill_id', `"${printable(skill).slice(0, 80)}" is not a skill id (letters, digits, . _ ~ -)`)
  let base: URL
  try {
    base = new URL(agent)
  } catch {
    throw new MeshError('invalid', 'invalid_agent_url', `"${printable(agent).slice(0, 200)}" is not a URL`)
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new MeshError('invalid', 'invalid_agent_url', `The agent URL must be http(s), got ${base.protocol}`)
  // fetch refuses URLs that carry credentials; say so before the call, without echoing them.
  if (base.username || base.password) throw new MeshError('invalid', 'invalid_agent_url', 'The agent URL must not carry a user name or password')
  const url = new URL(base.href)
  url.hash = ''
  url.pathname = base.pathname.replace(/\/+$/, '') + SKILL_PATH_PREFIX + skill
  return url
}

/** The answer's body as JSON: undefined when empty, `invalid` when it does not parse. */
function parseBody(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return invalidBody
  }
}
const invalidBody = Symbol('not JSON')

/**
 * Calls one skill. Resolves with `{status: 'ok', result}` or
 * `{status: 'payment_required', challenge}`; throws a MeshError with the
 * agent's code, message and field (details.status, details.retry_after)
 * for any other answer, `agent_unreachable` when there is none,
 * `agent_bad_answer` for a success that is not JSON or too large, and
 * `agent_redirected` for a 3xx (a signed, possibly paid call is never
 * re-sent elsewhere).
 */
export async function callAgent(options: CallAgentOptions): Promise<CallAgentAnswer> {
  const url = skillUrl(options.agent, options.skill)
  const path = url.pathname + url.search
  let body: string
  try {
    body = JSON.stringify(options.input === undefined ? {} : options.input)
  } catch (error) {
    throw new MeshError('invalid', 'invalid_input', `The input cannot be sent as JSON: ${(error as Error).message}`)
  }
  const headers: Record<string, string> = {'content-type': 'application/json', accept: 'application/json'}
  let signer: string | null = null
  if (options.privateKey) {
    // spec Authentication 2: the signature covers METHOD, path with query, and the raw body bytes sent;
    // issue 18: v2, bound to this agent's origin, so the agent cannot forward it to another agent that would take it.
    headers['mesh-sig'] = signRequest({method: 'POST', path, body, privateKey: options.privateKey, audience: url})
    signer = headers['mesh-sig'].split(' ')[1]
  }
  if (options.proof !== undefined) {
    if (!isTransactionSignature(options.proof)) throw new MeshError('invalid', 'invalid_proof', 'The payment proof must be a transaction signature (base58 of 64 bytes)')
    headers[PAYMENT_PROOF_HEADER.toLowerCase()] = options.proof
  }
  if (options.credential !== undefined) {
    // Checked here so fetch's own refusal (which quotes the header value) never shows the secret.
    if (!/^[\x21-\x7e]{1,8192}$/.test(options.credential)) throw new MeshError('invalid', 'invalid_credential', 'The credential must be one word of visible ASCII characters (it is sent as Authorization: Bearer <credential>)')
    headers.authorization = `Bearer ${options.credential}`
  }

  const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS
  const what = `POST ${url.pathname}`
  const where = `The agent at ${url.origin}`
  let response: Response
  try {
    response = await (options.fetch ?? globalThis.fetch)(url, {method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs)})
  } catch (error) {
    throw new MeshError('unavailable', 'agent_unreachable', `Cannot reach the agent at ${url.origin}: ${unreachableReason(error, timeoutMs)}`, {cause: error})
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel()
    const location = printable(response.headers.get('location') ?? '(no Location)').slice(0, 300)
    throw new MeshError('unavailable', 'agent_redirected', `${where} answered ${what} with ${response.status} to ${location}; mesh does not re-send a signed or paid call elsewhere: call the agent at its new address`, {details: {status: response.status}})
  }
  let text: string
  try {
    text = await readCapped(response, options.maxAnswerBytes ?? MAX_ANSWER_BYTES)
  } catch (error) {
    if (error instanceof MeshError) throw new MeshError('unavailable', 'agent_bad_answer', `${where} answered ${what} with more than ${options.maxAnswerBytes ?? MAX_ANSWER_BYTES} bytes`)
    throw new MeshError('unavailable', 'agent_unreachable', `${where} stopped answering ${what}: ${unreachableReason(error, timeoutMs)}`, {cause: error})
  }
  const parsed = parseBody(text)
  const common: AnswerCommon = {url: url.href, signer, httpStatus: response.status, headers: Object.fromEntries(response.headers)}
  if (response.ok) {
    if (parsed === invalidBody) throw new MeshError('unavailable', 'agent_bad_answer', `${where} answered ${what} with ${response.status} and a body that is not JSON`, {details: {status: response.status}})
    return {status: 'ok', result: parsed ?? null, ...common}
  }
  const json = parsed === invalidBody ? undefined : parsed
  if (response.status === 402) {
    return {status: 'payment_required', challenge: readPaymentChallenge(response.headers, json, where), proofRefused: options.proof !== undefined, ...common}
  }
  throw errorFromResponse(response, json, what, 'agent')
}
