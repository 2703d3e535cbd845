/** `mesh mcp --print-config <client>`: what to paste into each assistant CLI, with where it goes. */
import {codexToml, MCP_SERVER_NAME, mcpServersJson, type McpClientName, type StdioServer} from '../../lib/mcp-config.js'

export function printedConfig(client: McpClientName, server: StdioServer): string {
  switch (client) {
    case 'claude':
      return `# .mcp.json in the project (or: claude --mcp-config <this file>)\n${mcpServersJson(MCP_SERVER_NAME, server)}\n`
    case 'codex':
      return `# ~/.codex/config.toml\n${codexToml(MCP_SERVER_NAME, server)}`
    case 'gemini':
      return `# .gemini/settings.json in the project (merge mcpServers into an existing file)\n${mcpServersJson(MCP_SERVER_NAME, server)}\n`
  }
}
