/**
 * A kit agent's A2A server (issue 24): @a2a-js/sdk's DefaultRequestHandler
 * over the skill executor, behind the SDK's own JSON-RPC transports — 1.0
 * (`SendMessage`, `GetTask`) and the legacy 0.3 one (`message/send`,
 * `tasks/get`) — chosen by the `A2A-Version` header as the SDK's express
 * adapter chooses (absent means 0.3). Transport-free: src/agent/http/ maps
 * HTTP onto it. Loaded on the first A2A request (bench/startup).
 */
import type {AgentCard} from '@a2a-js/sdk'
import {DefaultRequestHandler, JsonRpcTransportHandler, ServerCallContext, validateVersion} from '@a2a-js/sdk/server'
import {LegacyJsonRpcTransportHandler} from '@a2a-js/sdk/compat/v0_3/server'
import type {A2AAgentCard} from '../a2a-card.js'
import {createA2AExecutor, A2A_CALL_KEY, type A2ACall, type A2AExecutorOptions} from './a2a-executor.js'
import {createBoundedTaskStore} from './a2a-tasks.js'
import {A2A_VERSIONS} from './constants.js'

export type {A2ACall}

/** A JSON answer to send as is. */
export interface A2AReply {
  status: number
  value: unknown
}

export interface A2AService {
  /** One JSON-RPC request body (text or parsed); answers the JSON-RPC response (HTTP 200, errors inside). */
  rpc(body: string | Record<string, unknown>, call: A2ACall, requestedVersion: string | undefined): Promise<unknown>
  /** spec optional `POST /tasks/send`: a 0.3 `message/send` params body; the result, or a 400/404 with the A2A error. */
  sendTask(params: unknown, call: A2ACall): Promise<A2AReply>
  /** spec optional `GET /tasks/<id>`: the 0.3 task. */
  getTask(id: string, call: A2ACall): Promise<A2AReply>
}

interface RpcResponse {
  result?: unknown
  error?: {code: number; message: string; data?: unknown}
}

/** JSON-RPC's and A2A's error codes as HTTP statuses, for the REST-shaped routes (A2A 1.0, error code mappings). */
const httpStatusOf = (code: number) => (code === -32001 ? 404 : code === -32603 ? 500 : 400)

export function createA2AService(card: A2AAgentCard, options: A2AExecutorOptions): A2AService {
  const agentCard = card as unknown as AgentCard
  // keepBusAliveStates []: an input-required (payment) task ends its call; the paid retry is a new message.
  const handler = new DefaultRequestHandler(agentCard, createBoundedTaskStore(), createA2AExecutor(options), undefined, undefined, undefined, undefined, undefined, {keepBusAliveStates: []})
  const current = new JsonRpcTransportHandler(handler)
  const legacy = new LegacyJsonRpcTransportHandler(handler)

  async function rpc(body: string | Record<string, unknown>, call: A2ACall, requestedVersion: string | undefined) {
    const version = requestedVersion || A2A_VERSIONS.legacy
    const useLegacy = version === A2A_VERSIONS.legacy
    const context = new ServerCallContext({requestedVersion: version, state: new Map([[A2A_CALL_KEY, call]])})
    try {
      validateVersion(context.requestedVersion, agentCard, 'JSONRPC')
    } catch (error) {
      const id = typeof body === 'object' && body !== null ? ((body.id as string | number | undefined) ?? null) : null
      return {jsonrpc: '2.0', id, error: useLegacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error) : JsonRpcTransportHandler.mapToJSONRPCError(error)}
    }
    // Streaming methods are refused by the handler (capabilities.streaming is false), so the answer is one envelope.
    return (useLegacy ? legacy : current).handle(body, context)
  }

  async function legacyCall(method: string, params: unknown, call: A2ACall): Promise<A2AReply> {
    const response = (await rpc({jsonrpc: '2.0', id: 1, method, params: params as Record<string, unknown>}, call, A2A_VERSIONS.legacy)) as RpcResponse
    if (response.error) return {status: httpStatusOf(response.error.code), value: {error: {code: 'a2a_error', message: response.error.message, a2a_code: response.error.code, ...(response.error.data === undefined ? {} : {data: response.error.data})}}}
    return {status: 200, value: response.result}
  }

  return {
    rpc,
    sendTask: (params, call) => legacyCall('message/send', params, call),
    getTask: (id, call) => legacyCall('tasks/get', {id}, call),
  }
}
