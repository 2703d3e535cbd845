/**
 * A2A and MCP over HTTP on a kit agent (issue 24): the Koa side of
 * src/agent/kit/a2a-service.ts and mcp-tools.ts. Each reads the body once
 * (its bytes are what Mesh-Sig signs) and hands the skill-call request to
 * the SDK's handler; the SDKs are loaded on the first request.
 */
import type {Context} from 'koa'
import {readJsonBody} from '../../http/json-body.js'
import type {AgentCore} from '../kit/agent-core.js'
import {A2A_VERSION_HEADER} from '../kit/constants.js'
import {skillRequestOf} from './skill-request.js'

const JSON_TYPE = 'application/json; charset=utf-8'
const NO_BODY = Buffer.alloc(0)
let mcpTransport: Promise<typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')> | undefined

function sendJson(ctx: Context, status: number, value: unknown) {
  ctx.status = status
  ctx.res.setHeader('Content-Type', JSON_TYPE)
  ctx.body = JSON.stringify(value)
}

/** `POST /`: one A2A JSON-RPC request, 1.0 or 0.3 by the `A2A-Version` header; the SDK answers its errors inside the envelope. */
export async function a2aRoute(ctx: Context, core: AgentCore) {
  const body = await readJsonBody(ctx, core.bodyLimit)
  const service = await core.a2a()
  const version = ctx.req.headers[A2A_VERSION_HEADER] as string | undefined
  sendJson(ctx, 200, await service.rpc(body.value as Record<string, unknown>, skillRequestOf(core, ctx, body.raw), version))
}

/** spec optional `POST /tasks/send`: the body is A2A 0.3 `message/send` params; the answer its result. */
export async function tasksSendRoute(ctx: Context, core: AgentCore) {
  const body = await readJsonBody(ctx, core.bodyLimit)
  const service = await core.a2a()
  const reply = await service.sendTask(body.value, skillRequestOf(core, ctx, body.raw))
  sendJson(ctx, reply.status, reply.value)
}

/** spec optional `GET /tasks/<id>`: the A2A 0.3 task. */
export async function taskRoute(ctx: Context, core: AgentCore, id: string) {
  const service = await core.a2a()
  const reply = await service.getTask(id, skillRequestOf(core, ctx, NO_BODY))
  sendJson(ctx, reply.status, reply.value)
}

/**
 * `POST /mcp`: MCP Streamable HTTP, stateless (no session: every request
 * stands alone, as a skill call does), JSON answers rather than SSE. The
 * SDK's transport writes to Node's response itself, so Koa steps aside.
 */
export async function mcpRoute(ctx: Context, core: AgentCore) {
  const body = await readJsonBody(ctx, core.bodyLimit)
  const [servers, {StreamableHTTPServerTransport}] = await Promise.all([core.mcp(), (mcpTransport ??= import('@modelcontextprotocol/sdk/server/streamableHttp.js'))])
  const slot = servers.take(skillRequestOf(core, ctx, body.raw))
  const transport = new StreamableHTTPServerTransport({sessionIdGenerator: undefined, enableJsonResponse: true})
  ctx.respond = false
  ctx.res.once('close', () => {
    // Closing the server closes its transport; the server is then free for another request.
    slot.server.close().then(
      () => servers.give(slot),
      () => undefined,
    )
  })
  await slot.server.connect(transport)
  await transport.handleRequest(ctx.req, ctx.res, body.value)
}
