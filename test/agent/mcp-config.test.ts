import {describe, expect, it} from 'vitest'
import {mcpClientConfig, mcpServerJson, SERVER_JSON_SCHEMA} from '../../src/agent/mcp-config.js'

describe('MCP client config and MCP Registry server.json of an agent', () => {
  it('names the agent /mcp as a remote HTTP server for clients', () => {
    expect(mcpClientConfig('echo', 'https://echo.example.com/mcp')).toEqual({mcpServers: {echo: {type: 'http', url: 'https://echo.example.com/mcp'}}})
  })

  it('writes server.json with a reverse-DNS name, a remote streamable-http and a description of at most 100 characters', () => {
    const long = 'x'.repeat(140)
    const json = mcpServerJson({agentId: 'echo', title: 'Echo', description: long, version: '1.2.3', mcpUrl: 'https://echo.agents.example.com/mcp'})
    expect(json).toEqual({
      $schema: SERVER_JSON_SCHEMA,
      name: 'com.example.agents.echo/echo',
      title: 'Echo',
      description: `${'x'.repeat(99)}…`,
      version: '1.2.3',
      remotes: [{type: 'streamable-http', url: 'https://echo.agents.example.com/mcp'}],
    })
    expect(mcpServerJson({agentId: 'echo', title: 'Echo', description: null, version: '1.0.0', mcpUrl: 'https://a.example/mcp'}).description).toBe('Echo')
    expect(() => mcpServerJson({agentId: 'echo', title: 'Echo', description: null, version: '1.0.0', mcpUrl: 'not a url'})).toThrow(/not a URL/)
  })
})
