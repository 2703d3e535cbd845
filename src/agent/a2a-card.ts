/**
 * The A2A AgentCard an agent serves at `/.well-known/agent-card.json`,
 * derived from its PublicCard (DECISIONS Agent kit, A2A card: same name, url,
 * version, description and skills, so A2A clients can read it).
 *
 * Shapes follow A2A 1.0 as @a2a-js/sdk reads them (AgentCard, AgentInterface,
 * AgentSkill), written as plain JSON. Declared here rather than imported: the
 * SDK is a dev dependency and mesh/agent's types must not need it.
 *
 * Transports (issue 24): the kit answers A2A JSON-RPC at `contact.a2a` (its
 * base URL), versions 1.0 and 0.3 chosen by the `A2A-Version` header, so
 * `supportedInterfaces` lists that endpoint once per version, and the 0.3
 * fields (`url`, `protocolVersion`, `preferredTransport`,
 * `additionalInterfaces`) name it for older clients. A card without
 * `contact.a2a` (one not served by the kit) lists no interface.
 */
import {isPaid, skillPricing, type PublicCard} from '../protocol/agent-card.js'
import {X402_A2A_EXTENSION_URI} from './kit/constants.js'

/** A2A 1.0 AgentInterface: where an A2A binding is served. */
export interface A2AAgentInterface {
  url: string
  /** `JSONRPC`, `GRPC` or `HTTP+JSON`. */
  protocolBinding: string
  protocolVersion: string
}

/** A2A 1.0 AgentSkill. */
export interface A2AAgentSkill {
  id: string
  name: string
  description: string
  tags: string[]
  examples: string[]
  inputModes: string[]
  outputModes: string[]
  securityRequirements: never[]
}

/** A2A AgentExtension: a protocol extension the agent supports. */
export interface A2AExtension {
  uri: string
  description: string
  required: boolean
}

/** A2A 1.0 AgentCard, plus `url` (and, with an A2A endpoint, `protocolVersion`) that A2A 0.3 readers require. */
export interface A2AAgentCard {
  name: string
  description: string
  version: string
  /** The PublicCard's url (DECISIONS: same url); A2A 0.3's required top-level address. */
  url: string
  /** A2A 0.3 readers: only present when the card declares a 0.x A2A endpoint (see a2aCardFromPublicCard). */
  protocolVersion?: string
  /** A2A 0.3 readers: the binding at `url`. */
  preferredTransport?: string
  /** A2A 0.3 readers: the declared A2A endpoint. */
  additionalInterfaces?: {url: string; transport: string}[]
  supportedInterfaces: A2AAgentInterface[]
  provider?: {organization: string; url: string}
  documentationUrl?: string
  iconUrl?: string
  capabilities: {streaming: boolean; pushNotifications: boolean; extendedAgentCard: boolean; extensions: A2AExtension[]}
  securitySchemes: Record<string, never>
  securityRequirements: never[]
  defaultInputModes: string[]
  defaultOutputModes: string[]
  skills: A2AAgentSkill[]
  signatures: never[]
}

export interface A2ACardOptions {
  /** The binding served at `contact.a2a`; default `JSONRPC` (what the kit serves). */
  protocolBinding?: string
  /** The A2A versions served at `contact.a2a`, preferred first; default `['1.0', '0.3']` (what the kit serves). */
  protocolVersions?: readonly string[]
}

const DEFAULT_BINDING = 'JSONRPC'
const DEFAULT_VERSIONS: readonly string[] = ['1.0', '0.3']

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((item) => typeof item === 'string') ? [...value] : undefined

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== ''

/**
 * The A2A AgentCard of a PublicCard. Security: none declared — a skill call
 * needs no credential the kit checks (Mesh-Sig is optional, a Bearer header
 * is the caller's own key for bring-your-own-key skills), so
 * `securitySchemes` and `securityRequirements` are empty. Capabilities:
 * no streaming, no push notifications, no extended card.
 */
export function a2aCardFromPublicCard(card: PublicCard, options: A2ACardOptions = {}): A2AAgentCard {
  const a2aUrl = card.contact?.a2a
  const binding = options.protocolBinding ?? DEFAULT_BINDING
  const versions = options.protocolVersions ?? DEFAULT_VERSIONS
  const supportedInterfaces: A2AAgentInterface[] = nonEmptyString(a2aUrl) ? versions.map((protocolVersion) => ({url: a2aUrl, protocolBinding: binding, protocolVersion})) : []
  // A2A x402 extension: declared (not required: free skills need nothing) when a skill is paid.
  const extensions: A2AExtension[] = card.skills.some((skill) => isPaid(skillPricing(skill, card)))
    ? [{uri: X402_A2A_EXTENSION_URI, description: 'Paid skills answer with the payment requirement in task metadata (x402.payment.required).', required: false}]
    : []
  const a2a: A2AAgentCard = {
    name: card.name,
    description: card.description,
    version: card.version,
    url: card.url,
    supportedInterfaces,
    capabilities: {streaming: false, pushNotifications: false, extendedAgentCard: false, extensions},
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: [...card.defaultInputModes],
    defaultOutputModes: [...card.defaultOutputModes],
    skills: card.skills.map((skill) => ({
      id: skill.id,
      name: skill.name ?? skill.id,
      description: skill.description ?? '',
      tags: strings(skill.tags) ?? [],
      examples: strings(skill.examples) ?? [],
      inputModes: strings(skill.inputModes) ?? [...card.defaultInputModes],
      outputModes: strings(skill.outputModes) ?? [...card.defaultOutputModes],
      securityRequirements: [],
    })),
    signatures: [],
  }
  // A 0.3 reader takes `url` + `protocolVersion` + `preferredTransport` as "JSON-RPC here": claimed only when a 0.x
  // endpoint really exists. (A 1.0 reader in legacy mode would read a top-level 0.x protocolVersion beside an empty
  // supportedInterfaces as a JSON-RPC endpoint at `url`: untrue for a card without one.)
  const legacy = versions.find((version) => version.startsWith('0.'))
  if (supportedInterfaces.length > 0 && legacy !== undefined) {
    a2a.url = a2aUrl as string
    a2a.protocolVersion = legacy.split('.').length === 2 ? `${legacy}.0` : legacy
    a2a.preferredTransport = binding
    a2a.additionalInterfaces = [{url: a2aUrl as string, transport: binding}]
  }
  const provider = card.provider as {organization?: unknown; url?: unknown} | undefined
  if (provider && nonEmptyString(provider.organization) && nonEmptyString(provider.url)) {
    a2a.provider = {organization: provider.organization, url: provider.url}
  }
  if (nonEmptyString(card.documentationUrl)) a2a.documentationUrl = card.documentationUrl
  if (nonEmptyString(card.iconUrl)) a2a.iconUrl = card.iconUrl
  return a2a
}
