/**
 * The real relay served in-process on port 0, for tests that drive the
 * cluster commands (and the cluster client) against it. The binary itself is
 * spawned through test/support/cli.ts.
 */
import {createLocalBus} from '../../../src/bus/index.js'
import {createMemoryClusterStore, createRelay} from '../../../src/cluster/index.js'
import {serve, type HostedServer} from '../../../src/http/index.js'
import {silentLogger} from '../../../src/lib/log.js'

/** The real relay on a free port; `stop()` closes its sockets with `server_shutdown`. */
export async function startRelay(port = 0): Promise<HostedServer> {
  const bus = createLocalBus()
  const relay = createRelay({store: createMemoryClusterStore(), bus, logger: silentLogger, publicUrl: 'http://127.0.0.1'})
  return serve({services: [relay], logger: silentLogger, port})
}
