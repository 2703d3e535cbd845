/**
 * A kit agent's MCP server (issue 24): one tool per skill (`name` = skill
 * id, `description` and `inputSchema` from the card), a tool call being the
 * same call as `POST /v1/<id>` (Mesh-Sig over the `POST /mcp` request,
 * input check, payment gate, handler). Loaded on the first `/mcp` request
 * (bench/startup).
 *
 * The low-level `Server` rather than `McpServer`: the tools' schemas are the
 * card's JSON Schemas, which McpServer would want as zod objects.
 *
 * A tool result's `structuredContent` is the JSON `/v1/<id>` answers (when
 * it is an object) and `_meta["mesh/http"]` its status and headers; a
 * refused call (402 with the payment requirement, 401, 400, …) is a result
 * with `isError: true` — as x402's MCP transport signals a payment required.
 */
import {Server} from '@modelcontextprotocol/sdk/server/index.js'
import {CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool} from '@modelcontextprotocol/sdk/types.js'
import {skillInputSchema, type PublicCard} from '../../protocol/agent-card.js'
import type {CompiledSkill} from './check-options.js'
import type {SkillAnswer} from './skill-answer.js'
import type {SkillCallRequest} from './skill-call.js'

/** The transport's part of a tool call: everything but the input. */
export type McpCall = Omit<SkillCallRequest, 'value' | 'inputRaw'>

/** An MCP server serving one request at a time, and the call it serves now. */
export interface McpServerSlot {
  readonly server: Server
  call: McpCall | undefined
}

/**
 * MCP servers for requests. The SDK's stateless Streamable HTTP wants one
 * transport, so one connected server, per request; building a `Server`
 * costs about a millisecond (bench/agent), connecting one about 60 µs, so
 * idle servers are kept and reconnected rather than rebuilt.
 */
export interface McpServerFactory {
  /** A server for this request's call; give it back once its transport is closed. */
  take(call: McpCall): McpServerSlot
  give(slot: McpServerSlot): void
}

/** Idle servers kept (enough for the concurrency of a busy agent; more are built on demand and dropped). */
const IDLE_SERVERS_KEPT = 64

export interface McpToolsOptions {
  card: PublicCard
  skills: ReadonlyMap<string, CompiledSkill>
  answer(skill: CompiledSkill, request: SkillCallRequest): Promise<SkillAnswer>
}

/** A skill with no input schema takes any object (MCP requires an object schema). */
const ANY_OBJECT = {type: 'object'} as const

export function toolsOfCard(card: PublicCard): Tool[] {
  return card.skills.map((skill) => {
    const schema = skillInputSchema(skill)
    return {
      name: skill.id,
      ...(skill.name ? {title: skill.name} : {}),
      description: skill.description ?? '',
      inputSchema: (schema && schema.type === 'object' ? schema : ANY_OBJECT) as Tool['inputSchema'],
    }
  })
}

function toolResult(answer: SkillAnswer): CallToolResult {
  const value = answer.value
  const result: CallToolResult = {
    content: [{type: 'text', text: answer.body}],
    _meta: {'mesh/http': {status: answer.status, ...(answer.headers ? {headers: answer.headers} : {})}},
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) result.structuredContent = value as Record<string, unknown>
  if (answer.status >= 300) result.isError = true
  return result
}

export function createMcpServerFactory(options: McpToolsOptions): McpServerFactory {
  const {card, skills, answer} = options
  const tools = {tools: toolsOfCard(card)}
  const info = {name: card.name, version: card.version}
  function build(): McpServerSlot {
    const slot: McpServerSlot = {server: new Server(info, {capabilities: {tools: {listChanged: false}}}), call: undefined}
    slot.server.setRequestHandler(ListToolsRequestSchema, () => tools)
    slot.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      // Read before the first await: the slot serves another request once this one's transport closes.
      const call = slot.call!
      const skill = skills.get(request.params.name)
      if (!skill) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name.slice(0, 64)}`)
      const input = request.params.arguments ?? {}
      return toolResult(await answer(skill, {...call, value: input, inputRaw: Buffer.from(JSON.stringify(input))}))
    })
    return slot
  }
  const idle: McpServerSlot[] = []
  return {
    take(call) {
      const slot = idle.pop() ?? build()
      slot.call = call
      return slot
    },
    give(slot) {
      slot.call = undefined
      if (idle.length < IDLE_SERVERS_KEPT) idle.push(slot)
    },
  }
}
