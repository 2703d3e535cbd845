/** An agent served by the kit as `mesh agent serve` hosts it: createAgent + serve() on 127.0.0.1, port 0. */
import {createAgent, type Agent} from '../../src/agent/kit/create-agent.js'
import type {CreateAgentOptions} from '../../src/agent/kit/types.js'
import {serve, type HostOptions, type HostedServer} from '../../src/http/host.js'
import {freePort} from '../../src/http/listen.js'
import {silentLogger} from '../../src/lib/log.js'

/** The hosted server (url, server, stop) and the agent it serves. */
export type ServedAgent = HostedServer & {agent: Agent}

/**
 * Serves one agent; the host logs to `host.logger`, else to the agent's
 * logger, else nowhere. Like `mesh agent serve` without --public-url, the
 * agent's public URL is its listening address (v2 Mesh-Sig names it, issue
 * 18), unless the options give `publicUrl` or `audienceFromRequest`.
 */
export async function serveAgent(options: CreateAgentOptions, host: Partial<Omit<HostOptions, 'services'>> & {port?: number} = {}): Promise<ServedAgent> {
  const port = host.port || (await freePort('127.0.0.1'))
  const ownAudience = options.publicUrl !== undefined || options.audienceFromRequest
  const agent = createAgent(ownAudience ? options : {...options, publicUrl: `http://127.0.0.1:${port}`})
  const server = await serve({...host, port, services: [agent], logger: host.logger ?? options.logger ?? silentLogger})
  return Object.assign(server, {agent})
}
