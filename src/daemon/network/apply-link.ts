/**
 * Writes a project's link to its cluster through the project writer (one
 * writer per file: the daemon's while it runs, a command's own otherwise;
 * src/cli/project-writes.ts): the owner's credentials and the private invite
 * (0600, under the deny-listed `credentials/`), the mesh.json `cluster` block,
 * then cluster.yaml `transport.endpoint` last — the file whose change makes a
 * running daemon reconnect. Every text is computed before the first write, so
 * a project file that cannot be read or parsed leaves everything as it was.
 * docs/network.md.
 */
import {chmod} from 'node:fs/promises'
import {readContainedText} from '../../lib/contained-files.js'
import {notFound} from '../../lib/errors.js'
import {CLUSTER_CREDENTIALS_FILE, INVITE_FILE_PATH, type ClusterCredentials, type ClusterLinkBody} from '../../protocol/cluster-link.js'
import {MESH_DIR} from '../../protocol/daemon.js'
import {inviteUrl, linkedClusterYaml, linkedMeshJson} from '../../standard/network/link-files.js'
import {BOOTSTRAP_PATH, type ProjectWriter} from '../project-writer.js'

export const LINK_REASON = 'cluster.link'
const SECRET_MODE = 0o600

export interface AppliedLink {
  cluster_id: string
  endpoint: string
  visibility: 'private' | 'public'
  /** `.mesh/`-relative paths written (mesh.json as `../mesh.json`); `removed` when a stale invite went away. */
  written: string[]
  removed: string[]
}

export async function applyLink(options: {root: string; writer: ProjectWriter; link: ClusterLinkBody; now: Date}): Promise<AppliedLink> {
  const {root, writer, link} = options
  const meshDir = `${root}/${MESH_DIR}`
  const clusterYaml = await readContainedText(meshDir, 'public/cluster.yaml')
  if (clusterYaml === null) throw notFound('cluster_yaml_missing', '.mesh/public/cluster.yaml does not exist; run `mesh init` first')
  const meshJson = await readContainedText(root, 'mesh.json')
  if (meshJson === null) throw notFound('mesh_json_missing', 'mesh.json does not exist at the project root; run `mesh init` first')
  const facts = {clusterId: link.cluster_id, endpoint: link.endpoint, visibility: link.visibility, name: link.name, hub: link.hub}
  const nextClusterYaml = linkedClusterYaml(clusterYaml, facts)
  const nextMeshJson = linkedMeshJson(meshJson, facts)
  const credentials: ClusterCredentials = {
    version: 1,
    hub: link.hub,
    cluster_id: link.cluster_id,
    endpoint: link.endpoint,
    visibility: link.visibility,
    token: link.token,
    admin_token: link.admin_token,
    linked_at: options.now.toISOString(),
  }

  const written: string[] = []
  const removed: string[] = []
  const write = async (path: string, text: string, mode?: number) => {
    await writer.write(path, text, {reason: LINK_REASON, ...(mode === undefined ? {} : {mode})})
    written.push(path)
  }
  await write(CLUSTER_CREDENTIALS_FILE, JSON.stringify(credentials, null, 2) + '\n', SECRET_MODE)
  // The folder of secrets is the operator's alone (as the team tokens' and the portal token's).
  await chmod(writer.resolve('credentials'), 0o700)
  if (link.visibility === 'private') await write(INVITE_FILE_PATH, inviteUrl(link.endpoint, link.token) + '\n', SECRET_MODE)
  else if ((await readContainedText(meshDir, INVITE_FILE_PATH).catch(() => 'unreadable')) !== null) {
    // A public cluster needs no invite: a stale one of an earlier private link must not send its token to the new relay.
    await writer.remove(INVITE_FILE_PATH, {reason: LINK_REASON})
    removed.push(INVITE_FILE_PATH)
  }
  if (nextMeshJson !== meshJson) await write(BOOTSTRAP_PATH, nextMeshJson)
  if (nextClusterYaml !== clusterYaml) await write('public/cluster.yaml', nextClusterYaml)
  return {cluster_id: link.cluster_id, endpoint: link.endpoint, visibility: link.visibility, written, removed}
}
