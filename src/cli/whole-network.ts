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
import {createRegistryClient} from '../client/registry/registry-client.js'
import {startDaemon, type RunningDaemon} from '../daemon/start.js'
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

export async function startNetwork(options: NetworkOptions): Promise<RunningNetwork> {
  const dataDir = join(options.root, MESH_DIR, NETWORK_DIR)
  const host = '127.0.0.1'
  const stops: Array<() => Promise<void>> = []
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch((error) => options.logger.warn('stop failed', {error: String(error)}))
  }
  try {
    // The daemon first: its lock refuses a second network in the same project before anything else opens.
    const daemon = await startDaemon({root: options.root, logger: options.logger, port: options.daemonPort}).catch((error: unknown) => {
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

    const controller = new AbortController()
    stops.push(async () => controller.abort())
    const block = await readDirectoryBlock(options.root)
    let agent: RunningNetwork['agent'] = null
    if (block) {
      const projectName = daemon.daemon.context.projectId() ?? block.agent_id
      try {
        const registered = await keepDirectoryAgentOnline({registryUrl, dataDir, block, projectName, signal: controller.signal, onAgent: options.onAgent})
        agent = {agent_id: block.agent_id, registered}
      } catch (error) {
        // The network runs without it; the reason is shown.
        options.onAgent?.({event: 'register_failed', agent_id: block.agent_id, error: isMeshError(error) ? error.message : String(error)})
      }
    }
    return {daemon, registry: {url: registryUrl, data: dataDir}, relay: {url: registryUrl.replace(/^http/, 'ws') + '/v1/clusters/<cluster_id>/ws'}, agent, stop: stopAll}
  } catch (error) {
    await stopAll()
    throw error
  }
}
