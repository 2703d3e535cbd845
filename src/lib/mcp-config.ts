/**
 * How each assistant CLI is told to start an MCP server over stdio, as its
 * documentation says (issue 24) — shared by `mesh mcp --print-config` (what
 * a person pastes) and the daemon's member turns (`mcp: true`,
 * docs/daemon.md, Clients):
 * - Claude Code: `--mcp-config <configs...>` loads servers from JSON files or
 *   strings, `{"mcpServers": {<name>: {command, args}}}`; the same shape is a
 *   project's `.mcp.json` (https://code.claude.com/docs/en/mcp).
 * - Codex: `[mcp_servers.<name>]` with `command` and `args` in
 *   `~/.codex/config.toml`; for one run, `-c mcp_servers.<name>.command=…`
 *   and `-c mcp_servers.<name>.args=[…]`, each value parsed as TOML
 *   (openai/codex docs/config.md, MCP servers; `codex exec --help`, -c).
 * - Gemini CLI: `mcpServers` `{<name>: {command, args}}` in a settings file
 *   (`.gemini/settings.json`, `~/.gemini/settings.json`, or the system
 *   settings file, whose path `GEMINI_CLI_SYSTEM_SETTINGS_PATH` overrides:
 *   geminicli.com/docs/cli/configuration, docs/tools/mcp-server.md).
 */
/** The name the project's MCP server goes by in every client's configuration. */
export const MCP_SERVER_NAME = 'mesh'

export type McpClientName = 'claude' | 'codex' | 'gemini'
export const MCP_CLIENTS: readonly McpClientName[] = ['claude', 'codex', 'gemini']

export interface StdioServer {
  command: string
  args: string[]
}

/** `{"mcpServers": {<name>: {command, args}}}`: claude's `--mcp-config` file and gemini's settings, the same JSON. */
export const mcpServersJson = (name: string, server: StdioServer): string => JSON.stringify({mcpServers: {[name]: {command: server.command, args: server.args}}}, null, 2)

/** A TOML basic string, or an array of them (JSON's string escapes are TOML's basic-string escapes). */
export const tomlValue = (value: string | string[]): string => (typeof value === 'string' ? JSON.stringify(value) : `[${value.map((item) => JSON.stringify(item)).join(', ')}]`)

/** codex's `config.toml` table. */
export const codexToml = (name: string, server: StdioServer): string => `[mcp_servers.${name}]\ncommand = ${tomlValue(server.command)}\nargs = ${tomlValue(server.args)}\n`
