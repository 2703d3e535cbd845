/** An agent served by the kit as `mesh agent serve` hosts it: createAgent + serve() on 127.0.0.1, port 0. */
import {createAgent, type Agent} from '../../src/agent/kit/create-agent.js'
import type {CreateAgentOptions} from '../../src/agent/kit/types.js'
import {serve, type HostOptions, type HostedServer} from '../../src/http/host.js'
import {silentLogger} from '../../src/lib/log.js'

/** The hosted server (url, server, stop) and the agent it serves. */
export type ServedAgent = HostedServer & {agent: Agent}

/** Serves one agent; the host logs to `host.logger`, else to the agent's logger, else nowhere. */
export async function serveAgent(options: CreateAgentOptions, host: Partial<Omit<HostOptions, 'services'>> & {port?: number} = {}): Promise<ServedAgent> {
  const agent = createAgent(options)
  const server = await serve({port: 0, ...host, services: [agent], logger: host.logger ?? options.logger ?? silentLogger})
  return Object.assign(server, {agent})
}
