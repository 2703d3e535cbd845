/**
 * What linking a project to its cluster changes in its files (issue 23;
 * docs/network.md): cluster.yaml `transport.endpoint`, the mesh.json
 * `cluster` block and the private invite. Pure text in, text out, so the
 * daemon (while it runs) and a command (when it does not) write the same bytes.
 */
import {createHash} from 'node:crypto'
import {isMap, parseDocument} from 'yaml'
import {invalid} from '../../lib/errors.js'

export type LinkVisibility = 'private' | 'public'

/** The facts of a link, as the relay answered them. */
export interface ClusterLink {
  /** The relay's cluster id (`c_…`). */
  clusterId: string
  /** The member socket URL without query: what cluster.yaml `transport.endpoint` holds. */
  endpoint: string
  visibility: LinkVisibility
  /** The cluster's display name (mesh.json `cluster.name`, 1 to 80 characters). */
  name: string
  /** The hub the cluster lives on (mesh.json `hub.url`). */
  hub: string
}

/**
 * mesh.json `cluster.channel_id` is a UUID (spec Bootstrap file) while the
 * relay's ids are `c_…`: the channel id is derived from the cluster id
 * (SHA-256, laid out as an RFC 9562 version 8 UUID), so every machine of the
 * project computes the same one and it changes exactly when the cluster does.
 */
export function channelIdOf(clusterId: string): string {
  const bytes = createHash('sha256').update(`mesh-cluster:${clusterId}`).digest().subarray(0, 16)
  bytes[6] = (bytes[6] & 0x0f) | 0x80
  bytes[8] = (bytes[8] & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** The endpoint as committed: the socket URL with no query or fragment (a token never lands in a committed file). */
export function committedEndpoint(ws: string): string {
  const url = new URL(ws)
  url.search = ''
  url.hash = ''
  return url.toString()
}

/** The invite of a private cluster: its socket URL with the `ck_` token (DECISIONS: `.mesh/credentials/invite.url`). */
export function inviteUrl(endpoint: string, token: string): string {
  const url = new URL(endpoint)
  url.searchParams.set('token', token)
  return url.toString()
}

/**
 * cluster.yaml with `transport.endpoint` set (and `transport.workflow`
 * websocket: the relay is a WebSocket); comments and every other key kept.
 */
export function linkedClusterYaml(text: string, link: ClusterLink): string {
  const document = parseDocument(text)
  if (document.errors.length > 0 || !isMap(document.contents)) {
    throw invalid('cluster_yaml_invalid', `.mesh/public/cluster.yaml is not a YAML mapping (${document.errors[0]?.message.split('\n')[0] ?? 'no keys'}); fix it, then link again`)
  }
  const transport = document.get('transport')
  if (!isMap(transport)) document.set('transport', document.createNode({workflow: 'websocket', endpoint: link.endpoint}))
  else {
    transport.set('workflow', 'websocket')
    transport.set('endpoint', link.endpoint)
  }
  return document.toString({lineWidth: 0})
}

/**
 * mesh.json with the `cluster` block of the link (spec Bootstrap file):
 * `invite: null` for a private cluster (the secret URL stays in
 * credentials/), the public socket for a public one. `admission` says what the
 * relay checks today: the invite's token (private) or nothing (public);
 * docs/network.md says how admission will change it. Other blocks are kept.
 */
export function linkedMeshJson(text: string, link: ClusterLink): string {
  let bootstrap: Record<string, unknown>
  try {
    bootstrap = JSON.parse(text) as Record<string, unknown>
  } catch (error) {
    throw invalid('mesh_json_invalid', `mesh.json is not valid JSON (${(error as Error).message}); fix it, then link again`)
  }
  if (!bootstrap || typeof bootstrap !== 'object' || Array.isArray(bootstrap)) throw invalid('mesh_json_invalid', 'mesh.json is not a JSON object; fix it, then link again')
  const hub = (bootstrap.hub && typeof bootstrap.hub === 'object' ? bootstrap.hub : {}) as Record<string, unknown>
  const previous = (bootstrap.cluster && typeof bootstrap.cluster === 'object' ? bootstrap.cluster : {}) as Record<string, unknown>
  // Fields the operator wrote (purpose, owners, roles, onboarding_doc…) stay; what the link decides is replaced.
  const {invite_expires_at: _expires, invite_methods: _methods, ...kept} = previous
  const cluster = {
    ...kept,
    channel_id: channelIdOf(link.clusterId),
    name: link.name,
    visibility: link.visibility,
    admission: link.visibility === 'private' ? 'invite' : 'open',
    invite: link.visibility === 'private' ? null : link.endpoint,
  }
  // The docs follow a new hub when they were the old hub's default `<hub>/docs` (what `mesh init` writes).
  const trim = (url: unknown) => (typeof url === 'string' ? url.replace(/\/+$/, '') : '')
  const docs = typeof hub.docs === 'string' && hub.docs !== `${trim(hub.url)}/docs` ? hub.docs : `${trim(link.hub)}/docs`
  const next = {...bootstrap, hub: {...hub, url: link.hub, docs}, cluster}
  return JSON.stringify(next, null, 2) + '\n'
}

/** The name a cluster gets: cluster.yaml `name` cut to mesh.json's 80 characters, else the project id. */
export function clusterNameOf(name: string | null, id: string | null): string {
  const chosen = (name ?? '').trim() || id || 'project'
  return chosen.length > 80 ? chosen.slice(0, 80).trimEnd() : chosen
}
