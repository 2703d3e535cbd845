/**
 * `mesh mcp`: the project's MCP server over stdio (MCP spec 2025-11-25,
 * Transports — stdio: JSON-RPC messages, one per line, on stdin and stdout;
 * anything else goes to stderr). Built on `@modelcontextprotocol/sdk`'s
 * low-level `Server` rather than `McpServer.registerTool`: registerTool takes
 * zod schemas (a package mesh does not depend on) and derives the JSON
 * Schema a client sees from them; here the JSON Schema is written once, as
 * the client reads it (tools.ts). The SDK is imported only when the command
 * runs, so the rest of the CLI never loads it.
 */
import {isMeshError} from '../../lib/errors.js'
import {MCP_SERVER_NAME} from '../../lib/mcp-config.js'
import {openMcpProject, type McpCaller} from './caller.js'
import {MCP_TOOLS} from './tools.js'

export interface McpServerOptions {
  root: string
  caller: McpCaller
  version: string
}

/** A tool's answer: its result as JSON text, or the error as text with `isError` (the spec's tool execution error). */
export type ToolAnswer = {content: Array<{type: 'text'; text: string}>; isError?: boolean}

/** Runs one tool call; never throws (an unknown tool or a failure is an error result the model can read). */
export async function callTool(project: Awaited<ReturnType<typeof openMcpProject>>, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const tool = MCP_TOOLS.find((entry) => entry.name === name)
  if (!tool) return {content: [{type: 'text', text: `unknown_tool: no tool ${name}`}], isError: true}
  const missing = (tool.inputSchema.required ?? []).filter((key) => args[key] === undefined || args[key] === '')
  if (missing.length > 0) return {content: [{type: 'text', text: `invalid_arguments: ${name} needs ${missing.join(', ')}`}], isError: true}
  try {
    return {content: [{type: 'text', text: JSON.stringify(await tool.run(project, args))}]}
  } catch (error) {
    // Known errors say their code and sentence; anything else only that it failed (no stack to a model).
    const text = isMeshError(error) ? `${error.code}: ${error.message}` : `internal_error: ${name} failed (${error instanceof Error ? error.message.split('\n')[0] : 'unknown'})`
    return {content: [{type: 'text', text}], isError: true}
  }
}

/** Serves the tools on stdin/stdout until the client closes stdin. */
export async function serveMcp(options: McpServerOptions): Promise<void> {
  const [{Server}, {StdioServerTransport}, {ListToolsRequestSchema, CallToolRequestSchema}] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ])
  const project = await openMcpProject(options.root, options.caller)
  const server = new Server({name: MCP_SERVER_NAME, version: options.version}, {capabilities: {tools: {}}})
  server.setRequestHandler(ListToolsRequestSchema, async () => ({tools: MCP_TOOLS.map(({name, description, inputSchema, annotations}) => ({name, description, inputSchema, annotations}))}))
  server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(project, request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>))
  const closed = new Promise<void>((resolve) => (server.onclose = resolve))
  // spec, stdio: the client ends the session by closing the server's stdin; the SDK's transport does not watch for it.
  process.stdin.once('end', () => void server.close())
  await server.connect(new StdioServerTransport())
  await closed
}
