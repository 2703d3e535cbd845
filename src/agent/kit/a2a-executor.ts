/**
 * The A2A AgentExecutor of a kit agent (issue 24): a message names a skill,
 * the skill runs through the same path as `POST /v1/<id>` (Mesh-Sig, input
 * check, payment gate, handler), and its answer goes back as A2A objects.
 * Loaded on the first A2A request only (bench/startup).
 *
 * How a message names its skill and input (docs/agent-kit.md, A2A):
 * - the skill: `metadata.skill` on the message, else on the request, else the
 *   agent's only skill;
 * - the input: the message's first data part, else its text (JSON text is
 *   parsed, other text is passed as a string).
 *
 * Answers: a Message with the result (a data part; a text part for a
 * string), or — when the client asked not to wait (`returnImmediately`,
 * 0.3 `blocking: false`) — a task that `GetTask` shows completed with the
 * result as its artifact. A refusal is a task: `input-required` with the
 * A2A x402 extension's `x402.payment.status` / `x402.payment.required`
 * metadata for a 402, `rejected` for another 4xx, `failed` for a 5xx; its
 * status message carries the HTTP status and body `/v1/<id>` would answer.
 */
import {randomUUID} from 'node:crypto'
import {Role, TaskState, type Message, type Part, type Task} from '@a2a-js/sdk'
import {AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext} from '@a2a-js/sdk/server'
import type {CompiledSkill} from './check-options.js'
import type {SkillAnswer} from './skill-answer.js'
import type {SkillCallRequest} from './skill-call.js'

/** The transport's part of a skill call (Mesh-Sig, proof, caller address): everything but the input. */
export type A2ACall = Omit<SkillCallRequest, 'value' | 'inputRaw'>

/** Where the transport puts the A2ACall in the SDK's ServerCallContext state. */
export const A2A_CALL_KEY = 'mesh.call'

export interface A2AExecutorOptions {
  skills: ReadonlyMap<string, CompiledSkill>
  answer(skill: CompiledSkill, request: SkillCallRequest): Promise<SkillAnswer>
}

const dataPart = (value: unknown): Part => ({content: {$case: 'data', value}, mediaType: 'application/json', filename: '', metadata: {}})
const textPart = (value: string): Part => ({content: {$case: 'text', value}, mediaType: 'text/plain', filename: '', metadata: {}})
const resultParts = (value: unknown): Part[] => [typeof value === 'string' ? textPart(value) : dataPart(value)]

function agentMessage(context: RequestContext, parts: Part[], metadata: Record<string, unknown> = {}, taskId = ''): Message {
  return {messageId: randomUUID(), contextId: context.contextId, taskId, role: Role.ROLE_AGENT, parts, metadata, extensions: [], referenceTaskIds: []}
}

/** A refusal in the MeshError shape, before any skill ran (no skill named, no input). */
const refusal = (code: string, message: string): SkillAnswer => {
  const value = {error: {code, message}}
  return {status: 400, body: JSON.stringify(value), value}
}

/** The skill a message names, or a 400 answer saying how to name one. */
function skillOf(skills: ReadonlyMap<string, CompiledSkill>, context: RequestContext): CompiledSkill | SkillAnswer {
  const named = context.userMessage.metadata?.skill ?? context.request.metadata?.skill
  if (typeof named === 'string') return skills.get(named) ?? refusal('unknown_skill', `This agent has no skill "${named.slice(0, 64)}"`)
  if (skills.size === 1) return skills.values().next().value as CompiledSkill
  return refusal('skill_required', `Name the skill in the message's metadata.skill: one of ${[...skills.keys()].join(', ')}`)
}

/** The skill input a message carries: its first data part, else its text (parsed when it is JSON). */
function inputOf(message: Message): unknown {
  let text: string | undefined
  for (const part of message.parts) {
    if (part.content?.$case === 'data') return part.content.value
    if (part.content?.$case === 'text') text = (text ?? '') + part.content.value
  }
  if (text === undefined) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** A refused call as an A2A status: the HTTP status and body beside a readable text. */
function refusedStatus(context: RequestContext, answer: SkillAnswer, taskId: string) {
  const detail = {status: answer.status, ...(answer.headers ? {headers: answer.headers} : {}), body: answer.value}
  const error = (answer.value as {error?: {message?: unknown}} | null)?.error
  if (answer.status === 402) {
    const hint = (answer.value as {hint?: unknown} | null)?.hint
    const metadata = {'x402.payment.status': 'payment-required', 'x402.payment.required': answer.value}
    const message = agentMessage(context, [textPart(typeof hint === 'string' ? hint : 'Payment required'), dataPart(detail)], metadata, taskId)
    return {state: TaskState.TASK_STATE_INPUT_REQUIRED, message, timestamp: new Date().toISOString()}
  }
  const text = typeof error?.message === 'string' ? error.message : `The skill call failed (${answer.status})`
  const state = answer.status >= 500 ? TaskState.TASK_STATE_FAILED : TaskState.TASK_STATE_REJECTED
  return {state, message: agentMessage(context, [textPart(text), dataPart(detail)], {}, taskId), timestamp: new Date().toISOString()}
}

export function createA2AExecutor(options: A2AExecutorOptions): AgentExecutor {
  return {
    async execute(context: RequestContext, bus: ExecutionEventBus) {
      const {taskId, contextId} = context
      const call = context.context.state.get(A2A_CALL_KEY) as A2ACall
      const waitless = context.request.configuration?.returnImmediately === true
      const task = (status: Task['status'], artifacts: Task['artifacts'] = []): Task => ({id: taskId, contextId, status, artifacts, history: [context.userMessage], metadata: {}})
      if (waitless) bus.publish(AgentEvent.task(task({state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString()})))

      const skill = skillOf(options.skills, context)
      let answer: SkillAnswer
      if ('handler' in skill) {
        const input = inputOf(context.userMessage)
        const inputRaw = Buffer.from(input === undefined ? '' : JSON.stringify(input))
        answer = await options.answer(skill, {...call, value: input, inputRaw})
      } else answer = skill

      if (answer.status < 300) {
        if (!waitless) bus.publish(AgentEvent.message(agentMessage(context, resultParts(answer.value))))
        else {
          const artifact = {artifactId: randomUUID(), name: 'result', description: '', parts: resultParts(answer.value), metadata: {}, extensions: []}
          bus.publish(AgentEvent.artifactUpdate({taskId, contextId, artifact, append: false, lastChunk: true, metadata: {}}))
          bus.publish(AgentEvent.statusUpdate({taskId, contextId, status: {state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: new Date().toISOString()}, metadata: {}}))
        }
      } else {
        const status = refusedStatus(context, answer, taskId)
        if (waitless) bus.publish(AgentEvent.statusUpdate({taskId, contextId, status, metadata: {}}))
        else bus.publish(AgentEvent.task(task(status)))
      }
      bus.finished()
    },
    // A skill call is one handler run with no cancel point; the agent's close() aborts running handlers.
    async cancelTask() {},
  }
}
