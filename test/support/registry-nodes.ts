/**
 * Registry nodes for multi-node tests: each node is a whole `mesh serve
 * registry` (built as the CLI builds it, hosted on port 0) with its own data
 * dir, all on one fresh PostgreSQL schema and one NATS subject prefix.
 * close() stops every node, drops the schema and removes the data dirs.
 */
import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {serve, type HostedServer} from '../../src/http/host.js'
import {silentLogger} from '../../src/lib/log.js'
import {buildRegistryServer, type RegistryServer, type RegistryServerConfig} from '../../src/registry/compose.js'
import {dropSchema, NATS_URL, PG_URL, uniqueNatsPrefix, uniqueSchema} from './backends.js'

export interface RegistryNode {
  server: RegistryServer
  hosted: HostedServer
}

export interface RegistryNodes {
  /** Where node `name` keeps its data dir: `<root>/<name>`. */
  root: string
  nodes: RegistryNode[]
  /** Starts node `name`; `overrides` (e.g. its own clock or logger) apply to this node only. */
  start(name: string, overrides?: Partial<RegistryServerConfig>): Promise<RegistryNode>
  close(): Promise<void>
}

export async function registryNodes(label: string, config: Partial<RegistryServerConfig> = {}): Promise<RegistryNodes> {
  const schema = uniqueSchema(label)
  const natsPrefix = uniqueNatsPrefix()
  const root = await mkdtemp(join(tmpdir(), `mesh-${label}-`))
  const nodes: RegistryNode[] = []
  return {
    root,
    nodes,
    async start(name, overrides = {}) {
      const server = await buildRegistryServer({
        publicUrl: 'https://registry.example',
        logger: silentLogger,
        ...config,
        ...overrides,
        dataDir: join(root, name),
        databaseUrl: PG_URL,
        databaseSchema: schema,
        natsUrl: NATS_URL,
        natsPrefix,
      })
      const hosted = await serve({services: server.services, logger: silentLogger, port: 0})
      nodes.push({server, hosted})
      return nodes.at(-1)!
    },
    async close() {
      for (const node of nodes.splice(0)) {
        await node.hosted.stop()
        await node.server.close()
      }
      await dropSchema(schema)
      await rm(root, {recursive: true, force: true})
    },
  }
}
