/**
 * `mesh up`: the project's whole network in one process — the daemon, an
 * embedded registry with its relay on SQLite in `.mesh/.runtime/network/`,
 * and the project's `directory` agent from mesh.json registered there and
 * kept online with the heartbeat loop. Part of the command tier: it composes
 * services, none of which knows about the others (docs/daemon.md, Whole network).
 */
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {runHeartbeat} from '../agent/heartbeat.js'
import {ClusterClient, relayUrl} from '../client/cluster/client.js'
import {createRegistryClient} from '../client/registry/registry-client.js'
import {DEFAULT_AREAS} from '../daemon/areas.js'
import {startDaemon, type RunningDaemon} from '../daemon/start.js'
import {createTransportArea, createTransportOverride, transportArea} from '../daemon/transport/index.js'
import {serve, type HostedServer} from '../http/host.js'
import {portIsFree, publicAddress} from '../http/listen.js'
import {writeFileAtomic} from '../lib/atomic-write.js'
import {isMeshError} from '../lib/errors.js'
import type {Logger} from '../lib/log.js'
import {MESH_DIR, RUNTIME_DIR} from '../protocol/daemon.js'
import {buildRegistryServer, type RegistryServer} from '../registry/compose.js'
import {listenFailure} from './serve-failure.js'

/** Where the embedded registry keeps its SQLite database and secrets, under `.mesh/`. */
export const NETWORK_DIR = `${RUNTIME_DIR}/network`
const AGENT_FILE = 'directory-agent.json'
/** The project's cluster on the embedded relay and its tokens (0600), kept beside the relay's database so the next run adopts it. */
const CLUSTER_FILE = 'cluster.json'
export const DEFAULT_REGISTRY_PORT = 8080
const HEARTBEAT_MS = 120_000

export interface NetworkOptions {
  root: string
  logger: Logger
  /** The registry's port; undefined: 8080, or any free port when 8080 is taken. */
  registryPort?: number
  /** The daemon's port; undefined: the spec's scan from architect.port. */
  daemonPort?: number
  /** Heartbeat events and registration problems of the directory agent. */
  onAgent?(event: {event: string; [key: string]: unknown}): void
}

export interface RunningNetwork {
  daemon: RunningDaemon
  registry: {url: string; data: string}
  relay: {url: string}
  /** The project's private cluster on the embedded relay, which the daemon joins (docs/network.md, mesh up). */
  cluster: {cluster_id: string; created: boolean}
  agent: {agent_id: string; registered: 'new' | 'known'} | null
  stop(): Promise<void>
}

interface DirectoryBlock {
  agent_id: string
  description?: string
  capabilities?: string[]
}

async function readDirectoryBlock(root: string): Promise<DirectoryBlock | null> {
  try {
    const bootstrap = JSON.parse(await readFile(join(root, 'mesh.json'), 'utf8')) as {directory?: DirectoryBlock}
    return bootstrap.directory && typeof bootstrap.directory.agent_id === 'string' ? bootstrap.directory : null
  } catch {
    return null
  }
}

/** Registers the directory agent (or reuses the key kept from an earlier `mesh up`) and keeps it online. */
async function keepDirectoryAgentOnline(options: {registryUrl: string; dataDir: string; block: DirectoryBlock; projectName: string; signal: AbortSignal; onAgent?: NetworkOptions['onAgent']}) {
  const client = createRegistryClient({registry: options.registryUrl})
  const keyFile = join(options.dataDir, AGENT_FILE)
  const kept = await readFile(keyFile, 'utf8').then((text) => JSON.parse(text) as {agent_id: string; api_key: string}).catch(() => null)
  let apiKey = kept?.agent_id === options.block.agent_id ? kept.api_key : null
  let registered: 'new' | 'known' = 'known'
  if (!apiKey) {
    const answer = await client.register({agent_id: options.block.agent_id, capabilities: options.block.capabilities ?? [], description: options.block.description})
    apiKey = answer.api_key
    registered = 'new'
    // The embedded registry's data lives beside it; the key goes there too (0600), never into a log.
    await writeFileAtomic(keyFile, JSON.stringify({agent_id: options.block.agent_id, api_key: apiKey}) + '\n', {mode: 0o600})
  }
  const card = {
    name: options.projectName,
    description: options.block.description ?? `The ${options.projectName} project`,
    category: 'project',
    tags: options.block.capabilities ?? [],
    availability: {now: true},
    owner_class: 'third-party',
  }
  void runHeartbeat({client, agentId: options.block.agent_id, apiKey, loadCard: async () => card, intervalMs: HEARTBEAT_MS, signal: options.signal, onEvent: (event) => options.onAgent?.({...event})}).catch(
    (error: unknown) => options.onAgent?.({event: 'stopped', error: isMeshError(error) ? error.message : String(error)}),
  )
  return registered
}

interface EmbeddedCluster {
  cluster_id: string
  token: string
  admin_token: string
}

/**
 * The project's private cluster on the embedded relay: the one an earlier run
 * made, while the relay's database still has it and its admin token owns it,
 * else a new one. Its tokens stay in the relay's data folder (0600), never in
 * the committed cluster.yaml; the daemon is handed the socket directly.
 */
async function embeddedCluster(options: {registryUrl: string; dataDir: string; name: string}): Promise<EmbeddedCluster & {created: boolean}> {
  const client = new ClusterClient({relay: options.registryUrl})
  const file = join(options.dataDir, CLUSTER_FILE)
  const kept = await readFile(file, 'utf8').then((text) => JSON.parse(text) as EmbeddedCluster, () => null)
  if (kept && typeof kept.cluster_id === 'string' && typeof kept.token === 'string' && typeof kept.admin_token === 'string') {
    const owned = await client.get(kept.cluster_id, kept.admin_token).then(() => true, () => false)
    if (owned) return {...kept, created: false}
  }
  const answer = await client.create({name: options.name.slice(0, 100), visibility: 'private'})
  const cluster: EmbeddedCluster = {cluster_id: answer.cluster_id, token: answer.token, admin_token: answer.admin_token}
  await writeFileAtomic(file, JSON.stringify(cluster) + '\n', {mode: 0o600})
  return {...cluster, created: true}
}

export async function startNetwork(options: NetworkOptions): Promise<RunningNetwork> {
  const dataDir = join(options.root, MESH_DIR, NETWORK_DIR)
  const host = '127.0.0.1'
  const stops: Array<() => Promise<void>> = []
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch((error) => options.logger.warn('stop failed', {error: String(error)}))
  }
  try {
    // The daemon first: its lock refuses a second network in the same project before anything else opens.
    // The daemon joins the embedded relay's cluster once it listens: its transport follows this override, not cluster.yaml.
    const override = createTransportOverride()
    const areas = DEFAULT_AREAS.map((build) => (build === transportArea ? (context: Parameters<typeof build>[0]) => createTransportArea(context, {override}) : build))
    const daemon = await startDaemon({root: options.root, logger: options.logger, port: options.daemonPort, areas}).catch((error: unknown) => {
      // A fixed --daemon-port in use; the scan of the spec's range says daemon_no_port itself.
      throw listenFailure(error, {service: 'daemon', host, port: options.daemonPort ?? 0, portFlag: '--daemon-port'}) ?? error
    })
    stops.push(() => daemon.stop())
    const wanted = options.registryPort ?? ((await portIsFree(DEFAULT_REGISTRY_PORT, host)) ? DEFAULT_REGISTRY_PORT : 0)
    const {port, publicUrl: registryUrl} = await publicAddress({host, port: wanted})
    const server: RegistryServer = await buildRegistryServer({dataDir, publicUrl: registryUrl, logger: options.logger, allowPrivateEndpoints: true})
    stops.push(() => server.close())
    let hosted: HostedServer
    try {
      hosted = await serve({services: server.services, logger: options.logger, port, host})
    } catch (error) {
      throw listenFailure(error, {service: 'registry', host, port, portFlag: '--registry-port'}) ?? error
    }
    stops.push(() => hosted.stop())

    const projectName = daemon.daemon.context.projectId() ?? 'project'
    const cluster = await embeddedCluster({registryUrl, dataDir, name: projectName})
    const endpoint = relayUrl(registryUrl, `/v1/clusters/${cluster.cluster_id}/ws`, 'ws').toString()
    override.set({endpoint, token: cluster.token})

    const controller = new AbortController()
    stops.push(async () => controller.abort())
    const block = await readDirectoryBlock(options.root)
    let agent: RunningNetwork['agent'] = null
    if (block) {
      try {
        const registered = await keepDirectoryAgentOnline({registryUrl, dataDir, block, projectName: daemon.daemon.context.projectId() ?? block.agent_id, signal: controller.signal, onAgent: options.onAgent})
        agent = {agent_id: block.agent_id, registered}
      } catch (error) {
        // The network runs without it; the reason is shown.
        options.onAgent?.({event: 'register_failed', agent_id: block.agent_id, error: isMeshError(error) ? error.message : String(error)})
      }
    }
    return {daemon, registry: {url: registryUrl, data: dataDir}, relay: {url: endpoint}, cluster: {cluster_id: cluster.cluster_id, created: cluster.created}, agent, stop: stopAll}
  } catch (error) {
    await stopAll()
    throw error
  }
}
