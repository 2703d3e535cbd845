/**
 * issue 24: every kit agent speaks A2A JSON-RPC at its base URL and MCP at
 * `/mcp`; the served PublicCard says so (spec PublicCard: `protocols` values
 * `a2a` and `mcp`, `contact` maps a protocol to its endpoint), and the A2A
 * card built from it lists the A2A endpoint in `supportedInterfaces`.
 */
import type {PublicCard} from '../../protocol/agent-card.js'
import {MCP_PATH} from './constants.js'

/** The A2A and MCP endpoints of an agent whose public base URL is `baseUrl` (no trailing slash). */
export function protocolEndpoints(baseUrl: string): {a2a: string; mcp: string} {
  return {a2a: baseUrl, mcp: baseUrl + MCP_PATH}
}

/** The card as served: `a2a` and `mcp` added to `protocols`, `contact.a2a` and `contact.mcp` naming the kit's own endpoints. */
export function withProtocolEndpoints(card: PublicCard, baseUrl: string): PublicCard {
  const protocols = [...card.protocols]
  for (const name of ['a2a', 'mcp']) if (!protocols.includes(name)) protocols.push(name)
  return {...card, protocols, contact: {...card.contact, ...protocolEndpoints(baseUrl)}}
}
