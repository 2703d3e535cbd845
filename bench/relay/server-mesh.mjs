// The mesh relay as built (dist/), on one node with the in-memory store and
// the in-process bus, limits raised so the benchmark measures fan-out rather
// than quotas. Run: node bench/relay/server-mesh.mjs <port>
import {createLocalBus} from '../../dist/bus/index.js'
import {createMemoryClusterStore, createRelay} from '../../dist/cluster/index.js'
import {serve} from '../../dist/http/index.js'
import {silentLogger} from '../../dist/lib/log.js'
import {countConnections, portArg, serveControl} from './server-common.mjs'

const port = portArg()
const relay = createRelay({
  store: createMemoryClusterStore(),
  bus: createLocalBus(),
  logger: silentLogger,
  publicUrl: 'http://127.0.0.1',
  limits: {membersPerCluster: 100_000, messagesPerWindow: 1_000_000_000, creationsPerIp: 1_000_000_000, socketOpensPerIp: 1_000_000_000},
})
const hosted = await serve({services: [relay], logger: silentLogger, port, host: '127.0.0.1'})
serveControl({port: hosted.port, connections: countConnections(hosted.server), stop: () => hosted.stop()})
