/**
 * What MCP clients and the MCP Registry need to reach an agent's `/mcp`
 * (issue 24): the client snippet `mesh agent serve --print-mcp-config`
 * prints, and the MCP Registry `server.json` (remote `streamable-http`,
 * schema 2025-12-11) `mesh card mcp-server-json` emits.
 */
import {MeshError} from '../lib/errors.js'

/** The MCP Registry's server.json schema this file writes (modelcontextprotocol.io, Publishing Remote Servers). */
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json'
/** server.json: `description` is at most 100 characters. */
const DESCRIPTION_MAX = 100

/**
 * The `mcpServers` entry MCP clients read (Claude Code's `.mcp.json` and
 * `--mcp-config`, Cursor, Gemini CLI settings): a remote HTTP server.
 */
export function mcpClientConfig(name: string, mcpUrl: string) {
  return {mcpServers: {[name]: {type: 'http', url: mcpUrl}}}
}

export interface ServerJsonInput {
  agentId: string
  title: string
  description: string | null
  version: string
  mcpUrl: string
}

/** The reverse-DNS namespace of the endpoint's host (server.json `name` is `<namespace>/<name>`): echo.example.com → com.example.echo. */
function namespaceOf(url: string): string {
  return new URL(url).hostname.split('.').reverse().join('.')
}

/** MCP Registry server.json for an agent whose MCP endpoint is `mcpUrl`. */
export function mcpServerJson(input: ServerJsonInput) {
  let namespace: string
  try {
    namespace = namespaceOf(input.mcpUrl)
  } catch {
    throw new MeshError('invalid', 'invalid_mcp_url', `The agent's MCP endpoint "${input.mcpUrl.slice(0, 200)}" is not a URL`)
  }
  const text = (input.description ?? input.title).trim()
  const description = text.length <= DESCRIPTION_MAX ? text : `${text.slice(0, DESCRIPTION_MAX - 1)}…`
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: `${namespace}/${input.agentId}`,
    title: input.title,
    description,
    version: input.version,
    remotes: [{type: 'streamable-http', url: input.mcpUrl}],
  }
}
