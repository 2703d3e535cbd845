/**
 * `mesh/client`: the public client API — what a script or an agent needs to
 * talk to a registry and a relay (docs/architecture.md, Clients and wire
 * types). Loading it loads no server code: no Koa, no SQLite, no PostgreSQL
 * driver (test/package/client-entry.integration.test.ts); `ws` is loaded
 * when a socket first connects.
 */
import type {createInboxClient} from './registry/inbox-client.js'

export {MeshError, isMeshError, type ErrorKind} from '../lib/errors.js'

// Registry: register, token, PATCH me, the directory.
export {
  createRegistryClient,
  DEFAULT_REGISTRY_URL,
  REGISTRY_ENV,
  resolveRegistryUrl,
  type AgentRecordView,
  type IdentityView,
  type PatchMeAnswer,
  type RegisterAnswer,
  type RegisterRequest,
  type RegistryClient,
  type RegistryClientOptions,
  type RegistrySession,
  type TokenAnswer,
} from './registry/registry-client.js'

// Search.
export {searchRegistry, type SearchAnswer, type SearchClientOptions, type SearchHit, type SearchQuery} from './registry/search-client.js'

// Inbox: messages over HTTP, the agent WebSocket.
export {createInboxClient} from './registry/inbox-client.js'
export type InboxClient = ReturnType<typeof createInboxClient>
export type {InboxMessage, WebhookStatus} from '../registry/wire.js'
export {watchAgentSocket, type WatchEvent, type WatchOptions} from './registry/inbox-watch.js'

// Cluster relay: REST calls and the member socket.
export {
  ClusterClient,
  ClusterConnection,
  createClusterClient,
  parseServerFrame,
  resolveRelayUrl,
  Roster,
  type AckFrame,
  type ClosedFrame,
  type ClusterCatalogItem,
  type ClusterClientOptions,
  type ClusterConnectionEvents,
  type ClusterConnectionOptions,
  type ClusterList,
  type ConnectionState,
  type ConnectionStatus,
  type CreateClusterInput,
  type CreatedCluster,
  type ErrorFrame,
  type JoinOptions,
  type MemberVisibility,
  type MessageFrame,
  type PresenceFrame,
  type ReadyFrame,
  type RosterEntry,
  type ServerFrame,
  type Visibility,
} from './cluster/client.js'
export {DEFAULT_RELAY_URL, RELAY_ENV} from './cluster/constants.js'

// Boards and posts.
export {
  BoardsClient,
  createBoardsClient,
  type Board,
  type BoardInput,
  type BoardList,
  type BoardProps,
  type BoardsClientOptions,
  type CreatedPost,
  type Post,
  type PostInput,
  type PostList,
  type PostQuery,
  type PostTtl,
} from './cluster/boards-client.js'

// Agents: call a skill signed with Mesh-Sig, read a 402 challenge, retry with a proof.
export {
  callAgent,
  createAgentCardCache,
  isTransactionSignature,
  readPaymentChallenge,
  resolveAgentUrl,
  solanaPayUrl,
  type AgentCardCache,
  type CallAgentAnswer,
  type CallAgentOptions,
  type PaymentChallenge,
  type PaymentRequiredAnswer,
  type ResolveAgentOptions,
  type ResolvedAgent,
  type SkillAnswer,
} from './agent/index.js'
