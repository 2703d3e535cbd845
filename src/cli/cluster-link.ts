/**
 * `mesh cluster link` (and `mesh init --link`): the project's cluster on its
 * hub's relay — the one this machine created for it before, adopted when the
 * relay still knows it and the kept admin token still owns it, else a new
 * one — written into the project through its one writer (the running daemon,
 * else locally; src/cli/project-writes.ts). Every call to the hub happens
 * before the first write, so a hub that cannot be reached or refuses leaves
 * the project as it was. docs/network.md.
 */
import {parse} from 'yaml'
import {createClusterClient} from '../client/cluster/client.js'
import {resolveServerUrl} from '../client/http-json.js'
import {readContainedText} from '../lib/contained-files.js'
import {invalid, isMeshError, MeshError} from '../lib/errors.js'
import {CLUSTER_CREDENTIALS_FILE, CLUSTER_LINK_PATH, parseClusterCredentials, type ClusterCredentials, type ClusterLinkBody} from '../protocol/cluster-link.js'
import {MESH_DIR} from '../protocol/daemon.js'
import type {LinkVisibility} from '../standard/network/link-files.js'
import {writeProject, type WriteVia} from './project-writes.js'

export interface LinkOptions {
  /** `--dir`: where to look for the project (default the current folder, then upward). */
  dir?: string
  /** `--hub`; default mesh.json `hub.url`. */
  hub?: string
  /** `--visibility`; default: the adopted cluster's, else private. */
  visibility?: LinkVisibility
  /** `--name`; default cluster.yaml `name`. */
  name?: string
  fetch?: typeof fetch
}

export interface LinkResult {
  cluster_id: string
  endpoint: string
  visibility: LinkVisibility
  hub: string
  /** `created`: a new cluster on the relay; `adopted`: the one this machine created before. */
  outcome: 'created' | 'adopted'
  via: WriteVia
  written: string[]
  removed: string[]
}

interface ProjectFacts {
  root: string
  hub: string | null
  name: string | null
  id: string | null
  owned: ClusterCredentials | null
}

async function readFacts(root: string): Promise<ProjectFacts> {
  const meshDir = `${root}/${MESH_DIR}`
  const object = (value: unknown) => (value && typeof value === 'object' ? (value as Record<string, unknown>) : {})
  const bootstrap = await readContainedText(root, 'mesh.json').then((text) => object(text === null ? null : JSON.parse(text)), () => ({}) as Record<string, unknown>)
  const cluster = await readContainedText(meshDir, 'public/cluster.yaml').then((text) => object(text === null ? null : parse(text)), () => ({}) as Record<string, unknown>)
  const ownedText = await readContainedText(meshDir, CLUSTER_CREDENTIALS_FILE).catch(() => null)
  const hub = object(bootstrap.hub).url
  return {
    root,
    hub: typeof hub === 'string' ? hub : null,
    name: typeof cluster.name === 'string' ? cluster.name : null,
    id: typeof cluster.id === 'string' ? cluster.id : null,
    owned: ownedText === null ? null : parseClusterCredentials(ownedText),
  }
}

/** A call to the hub that failed, in words that say nothing was written. */
function hubError(error: unknown, hub: string, what: string): Error {
  if (!isMeshError(error)) return error as Error
  if (error.code.endsWith('_unreachable') || error.code.endsWith('_bad_answer')) {
    return new MeshError('unavailable', 'hub_unreachable', `Cannot ${what} on the hub at ${hub}: ${error.message}. Nothing was written.`, {cause: error})
  }
  return new MeshError(error.kind, 'hub_refused', `The hub at ${hub} refused to ${what} (${error.code}: ${error.message}). Nothing was written.`, {cause: error})
}

const sameHub = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '')

/**
 * Whether the relay still has the cluster this machine created and the kept
 * admin token still owns it (`GET /v1/clusters/<id>` with the `ak_` token):
 * false for 404 (deleted) and 401 (not ours); a hub that cannot be reached throws.
 */
async function stillOwned(client: ReturnType<typeof createClusterClient>, owned: ClusterCredentials, hub: string): Promise<boolean> {
  try {
    await client.get(owned.cluster_id, owned.admin_token)
    return true
  } catch (error) {
    if (isMeshError(error) && (error.kind === 'not_found' || error.kind === 'unauthorized')) return false
    throw hubError(error, hub, 'look up the project\'s cluster')
  }
}

/** Creates or adopts the project's cluster on the hub and writes the link; see the file's comment. */
export async function linkProject(options: LinkOptions): Promise<LinkResult> {
  const {findProjectRoot} = await import('../standard/project/project-root.js')
  const facts = await readFacts(await findProjectRoot(options.dir ?? process.cwd()))
  const rawHub = options.hub ?? facts.hub
  if (!rawHub) throw invalid('usage_no_hub', 'No hub to link to: pass --hub <url> or set hub.url in mesh.json', {field: 'hub'})
  const hub = resolveServerUrl({flag: rawHub, flagName: '--hub', env: '', fallback: rawHub})
  const client = createClusterClient({relay: hub, fetch: options.fetch})
  const {clusterNameOf} = await import('../standard/network/link-files.js')
  const name = clusterNameOf(options.name ?? facts.name, facts.id)

  let created: {cluster_id: string; ws: string; visibility: LinkVisibility; token: string; admin_token: string}
  let outcome: LinkResult['outcome']
  const owned = facts.owned && sameHub(facts.owned.hub, hub) ? facts.owned : null
  if (owned && (await stillOwned(client, owned, hub))) {
    if (options.visibility && options.visibility !== owned.visibility) {
      throw new MeshError('conflict', 'visibility_mismatch', `The project's cluster ${owned.cluster_id} on ${hub} is ${owned.visibility}; a relay cannot change a cluster's visibility. Delete it (\`mesh cluster delete ${owned.cluster_id}\` with its admin token from .mesh/${CLUSTER_CREDENTIALS_FILE}) and link again. Nothing was written.`, {field: 'visibility'})
    }
    created = {cluster_id: owned.cluster_id, ws: owned.endpoint, visibility: owned.visibility, token: owned.token, admin_token: owned.admin_token}
    outcome = 'adopted'
  } else {
    const visibility = options.visibility ?? 'private'
    try {
      const answer = await client.create({name, visibility})
      created = {cluster_id: answer.cluster_id, ws: answer.ws, visibility: answer.visibility, token: answer.token, admin_token: answer.admin_token}
    } catch (error) {
      throw hubError(error, hub, `create the project's ${visibility} cluster`)
    }
    outcome = 'created'
  }

  const {committedEndpoint} = await import('../standard/network/link-files.js')
  const body: ClusterLinkBody = {
    cluster_id: created.cluster_id,
    endpoint: committedEndpoint(created.ws),
    visibility: created.visibility,
    name,
    hub,
    token: created.token,
    admin_token: created.admin_token,
  }
  type Applied = Omit<LinkResult, 'hub' | 'outcome' | 'via'>
  const {via, result} = await writeProject<Applied>(facts.root, {
    daemon: (session) => session.call<Applied>('POST', CLUSTER_LINK_PATH, body),
    local: async (project) => {
      const {applyLink} = await import('../daemon/network/apply-link.js')
      return applyLink({root: project.root, writer: project.writer, link: body, now: project.now()})
    },
  })
  return {...result, hub, outcome, via}
}
