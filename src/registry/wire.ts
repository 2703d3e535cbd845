/**
 * The registry's wire shapes, for clients (src/client/registry/). Type-only:
 * every shape is derived from or re-exported from the code that answers it,
 * so a client importing this loads no server code and can never drift from
 * what the server sends.
 */
import type {identityAttestation} from './records.js'
import type {RegisterBody, RegistryOperations} from './service.js'

export type {DirectoryRecord} from './records.js'
export type {InboxMessage} from './messaging/store/store.js'
export type {WebhookStatus} from './messaging/service.js'
export type {SearchResponse, SearchResultItem} from './search/search-service.js'

/** `POST /v1/agents/register` body. */
export type RegisterRequest = RegisterBody
/** `POST /v1/agents/register` answer (201 new, 200 key rotated). */
export type RegisterAnswer = Awaited<ReturnType<RegistryOperations['register']>>['body']
/** `POST /v1/agents/token` answer. */
export type TokenAnswer = Awaited<ReturnType<RegistryOperations['token']>>
/** `PATCH /v1/agents/me` answer. */
export type PatchMeAnswer = Awaited<ReturnType<RegistryOperations['patchMe']>>
/** `GET /v1/agents/<id>/identity`: the identity attestation. */
export type IdentityView = ReturnType<typeof identityAttestation>
