import {join, resolve} from 'node:path'
import {Args, Flags} from '@oclif/core'
import type {FolderPayments} from '../../agent/folder/serve-folder.js'
import {assertAgentId} from '../../cli/agent-id.js'
import {MeshCommand} from '../../cli/base-command.js'
import {assertCredentialsDir} from '../../cli/credentials-dir.js'
import {checkDataDir, checkUrl} from '../../cli/serve-checks.js'
import {serveProcess} from '../../cli/serve-process.js'
import {stdoutIsTTY} from '../../cli/tty.js'
import {printable} from '../../client/printable.js'
import {REGISTRY_ENV} from '../../client/registry/search-client.js'
import {isMeshError, MeshError} from '../../lib/errors.js'
import {AGENT_ID_PATTERN} from '../../protocol/registry.js'

const usage = (code: string, message: string) => new MeshError('invalid', code, message)

export default class AgentServe extends MeshCommand {
  static override description = `Serve an agent from a folder: agent.json (its PublicCard) and handlers.js or handlers.mjs (default export: skill id → async (input, ctx) => output).

Serves the agent contract — the card at /.well-known/agent.json (with url = the public URL), the A2A card, /health, POST /v1/<skill-id> with Mesh-Sig verification, CORS — and pay-per-call in lamports for paid skills (--wallet; state in the agent's SQLite under --data). With --registry (or MESH_REGISTRY) it registers the agent if needed (identity key and api_key kept like \`mesh register\`) and keeps it online with the heartbeat, pushing the DiscoveryCard derived from the card. Prints one start line with the URL, then the registration and heartbeat status (on a pipe or with --json: NDJSON events "listening", "registered", "heartbeat", "retry", "stopped"). SIGINT or SIGTERM stops it cleanly. See docs/agent-serve.md.`

  static override examples = [
    '<%= config.bin %> agent serve examples/echo',
    '<%= config.bin %> agent serve examples/echo --port 0 --registry http://127.0.0.1:8080',
    '<%= config.bin %> agent serve examples/paid --wallet <address> --free-per-day 5',
    '<%= config.bin %> agent serve . --host 0.0.0.0 --public-url https://echo.example.com --registry https://registry.example',
  ]

  static override args = {
    dir: Args.string({description: 'the agent folder (agent.json + handlers.js|mjs)', default: '.'}),
  }

  static override flags = {
    port: Flags.integer({char: 'p', description: 'port to listen on (0 picks a free one; the start line prints it)', default: 8090, min: 0, max: 65535}),
    host: Flags.string({description: 'address to bind (0.0.0.0 for every interface)', default: '127.0.0.1'}),
    'public-url': Flags.string({description: "the agent's public base URL: the served card's url, the registered endpoint (default: the listening address)"}),
    data: Flags.string({char: 'd', description: "the agent's own data folder: its SQLite of used Mesh-Sig nonces and pay-per-call state (default <dir>/.mesh-agent)"}),
    wallet: Flags.string({description: "the agent wallet's public address (base58); required when a skill is paid. Its private key is never read"}),
    network: Flags.string({description: 'the payment network named in 402 challenges', default: 'solana-devnet'}),
    'rpc-url': Flags.string({description: 'the Solana JSON-RPC node that checks payment proofs (default: the public node of --network)'}),
    'free-per-day': Flags.integer({description: 'free calls of a paid skill per caller per day (counted by key and by IP; default 10)', min: 0}),
    registry: Flags.string({description: 'register the agent there if needed and keep it online (heartbeat)', env: REGISTRY_ENV}),
    register: Flags.boolean({description: 'register and heartbeat when a registry is given (--no-register: only serve, even with MESH_REGISTRY set)', default: true, allowNo: true}),
    'agent-id': Flags.string({description: "the agent's id on the registry and in /health (default: the card's name in kebab-case)"}),
    credentials: Flags.string({description: "folder of file-stored secrets (default: the project's .mesh/credentials, found from any subfolder; identities in agents/ beside a credentials/ folder, else inside it)"}),
    interval: Flags.integer({description: 'seconds between heartbeats (spec: under 5 minutes)', default: 120, min: 5, max: 290}),
    proxy: Flags.boolean({description: 'behind a reverse proxy: the client IP (free allowance) is the one in X-Forwarded-For', default: false}),
    'print-mcp-config': Flags.boolean({description: "print the snippet an MCP client needs to use the agent's skills as tools (its /mcp endpoint at the public URL), then exit without serving", default: false}),
    'log-level': Flags.option({options: ['debug', 'info', 'warn', 'error'] as const, description: 'log level (stderr)', default: 'info', env: 'MESH_LOG_LEVEL'})(),
  }

  protected override streamsNdjson = true

  /** issue 24: `{mcpServers: {<agent id>: {type: "http", url: "<public url>/mcp"}}}`, what Claude Code, Cursor and Gemini CLI read. */
  private async printMcpConfig(agentId: string, publicUrl: string | undefined, host: string, port: number) {
    if (!publicUrl && port === 0) throw usage('usage_mcp_config_port', '--print-mcp-config needs the address the agent will have: pass --port <n> or --public-url <url>')
    const [{mcpClientConfig}, {protocolEndpoints}] = await Promise.all([import('../../agent/mcp-config.js'), import('../../agent/kit/protocol-endpoints.js')])
    const config = mcpClientConfig(agentId, protocolEndpoints(publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).mcp)
    if (!this.jsonEnabled()) this.log(JSON.stringify(config, null, 2))
    return config
  }

  async run() {
    const {args, flags} = await this.parse(AgentServe)
    const [{loadAgentFolder, DEFAULT_DATA_DIR_NAME, defaultRpcUrl}, {assertChargeable, paidSkillIds, serveFolder}, {createLogger}] = await Promise.all([
      import('../../agent/folder/index.js'),
      import('../../agent/folder/serve-folder.js'),
      import('../../lib/log.js'),
    ])
    // Flags that need no file first: a typo is a usage error before any code of the folder runs.
    const publicUrl = flags['public-url'] === undefined ? undefined : checkUrl(flags['public-url'], '--public-url', ['http:', 'https:'], 'https://agent.example.com').href.replace(/\/+$/, '')
    const registry = flags.register && flags.registry ? checkUrl(flags.registry, '--registry', ['http:', 'https:'], 'https://registry.example').href.replace(/\/+$/, '') : undefined
    if (flags['agent-id'] !== undefined) assertAgentId(flags['agent-id'], '--agent-id')
    if (flags['rpc-url'] !== undefined) checkUrl(flags['rpc-url'], '--rpc-url', ['http:', 'https:'], 'https://api.devnet.solana.com')

    const folder = await loadAgentFolder(args.dir)
    const paid = paidSkillIds(folder.card)
    assertChargeable(folder.card, join(args.dir, 'agent.json'))
    let payments: FolderPayments | undefined
    if (paid.length > 0) {
      if (!flags.wallet) {
        throw usage('usage_wallet_required', `${join(args.dir, 'agent.json')} prices ${paid.length === 1 ? 'skill' : 'skills'} ${paid.map((id) => `"${id}"`).join(', ')}; pass --wallet <address>, the public address of the wallet that receives the payments`)
      }
      const {isSolanaAddress} = await import('../../agent/solana/address.js')
      if (!isSolanaAddress(flags.wallet)) throw usage('usage_wallet', `--wallet must be a Solana address (base58 of 32 bytes), got "${printable(String(flags.wallet).slice(0, 64))}"`)
      const rpcUrl = flags['rpc-url'] ?? defaultRpcUrl(flags.network)
      if (!rpcUrl) throw usage('usage_rpc_url', `No public RPC node is known for --network ${printable(flags.network)}; pass --rpc-url <url of a Solana JSON-RPC node>`)
      payments = {wallet: flags.wallet, network: flags.network, rpcUrl, freePerDay: flags['free-per-day']}
    }
    const {kebabCase} = await import('../../lib/kebab-case.js')
    const agentId = flags['agent-id'] ?? kebabCase(folder.card.name)
    if (!AGENT_ID_PATTERN.test(agentId)) {
      throw usage('usage_agent_id', `The card's name "${printable(folder.card.name)}" makes the agent id "${agentId}", which is not 3 to 64 characters of A-Z a-z 0-9 _ -; pass --agent-id`)
    }
    if (flags['print-mcp-config']) return this.printMcpConfig(agentId, publicUrl, flags.host, flags.port)
    const dataDir = resolve(flags.data ?? join(args.dir, DEFAULT_DATA_DIR_NAME))
    await checkDataDir(dataDir)

    // Everything the registry would refuse is found now, naming agent.json's field, not at the first heartbeat.
    let credentials: string | undefined
    const {discoveryCardOf} = await import('../../agent/discovery-card.js')
    const discoveryFor = (url: string) => discoveryCardOf({...folder.card, url}, {publicUrl: url, source: join(args.dir, 'agent.json')})
    if (registry) {
      discoveryFor(publicUrl ?? 'http://127.0.0.1')
      const {assertLocalAgentId, credentialsDir} = await import('../../agent/credentials.js')
      assertLocalAgentId(agentId, '--agent-id')
      credentials = await assertCredentialsDir(await credentialsDir(flags.credentials))
    }

    const logger = createLogger({name: 'agent', level: flags['log-level']})
    const json = this.jsonEnabled() || !stdoutIsTTY()
    const render = json ? ndjson : pretty(agentId, registry)
    const controller = new AbortController()
    let beats = 0
    await serveProcess({
      server: {service: 'agent', listen: {host: flags.host, port: flags.port, portFlag: '--port'}},
      logger,
      async start() {
        const served = await serveFolder({folder, port: flags.port, host: flags.host, publicUrl, dataDir, payments, agentId, proxy: flags.proxy, logger})
        return {
          ...served,
          async stop() {
            // The heartbeat first; the server's close aborts the ctx.signal of running handlers.
            controller.abort()
            await served.stop()
          },
        }
      },
      announce(served) {
        if (served.replacedUrl) logger.info(`agent.json says url ${served.replacedUrl}; it is served as ${served.publicUrl}, the public URL (pass --public-url to change it)`)
        render({
          event: 'listening',
          service: 'agent',
          agent_id: agentId,
          url: served.url,
          port: served.port,
          public_url: served.publicUrl,
          skills: served.agent.skillIds,
          paid: served.paidSkills,
          data: dataDir,
          ...(payments ? {wallet: payments.wallet, network: payments.network} : {}),
          registry: registry ?? null,
        })
      },
      async background(served) {
        if (!registry || !credentials) return new Promise<never>(() => {})
        const [{keepRegistered}, {API_KEY_ENV}] = await Promise.all([import('../../agent/registration.js'), import('../../agent/credentials.js')])
        const envKey = process.env[API_KEY_ENV] || undefined
        try {
          await keepRegistered({
            registry,
            agentId,
            credentialsDir: credentials,
            loadCard: () => discoveryFor(served.publicUrl),
            intervalMs: flags.interval * 1000,
            signal: controller.signal,
            apiKey: envKey,
            onEvent(event) {
              if (event.event === 'stopped') beats = event.beats
              else render(event)
            },
          })
        } catch (error) {
          if (envKey && isMeshError(error) && error.code === 'invalid_credentials') throw new MeshError('unauthorized', 'invalid_credentials', `${API_KEY_ENV} is not the api_key of ${agentId} on ${registry}; unset it to use (or get) the stored one`)
          throw error
        }
        // keepRegistered ends only when its signal is aborted, i.e. on the stop.
        return new Promise<never>(() => {})
      },
      stopped: (signal) => render({event: 'stopped', service: 'agent', agent_id: agentId, signal, beats}),
    })
  }
}

type Event = {event: string; [key: string]: unknown}

function ndjson(event: Event) {
  process.stdout.write(JSON.stringify(event) + '\n')
}

/** The terminal view: the start line, registration lines, one heartbeat status line rewritten in place. */
function pretty(agentId: string, registry: string | undefined) {
  let statusOpen = false
  const write = (line: string, status = false) => {
    process.stdout.write(`${statusOpen ? '\r\x1b[2K' : ''}${line}${status ? '' : '\n'}`)
    statusOpen = status
  }
  return (event: Event) => {
    const time = typeof event.at === 'string' ? event.at.slice(11, 19) : ''
    const error = event.error as {message?: string} | undefined
    switch (event.event) {
      case 'listening': {
        const paid = (event.paid as string[]).length > 0 ? `; paid ${(event.paid as string[]).join(', ')} → ${event.wallet} on ${event.network}` : '; free'
        return write(`mesh agent ${agentId} listening on ${event.url} (public ${event.public_url}; skills ${(event.skills as string[]).join(', ')}${paid}${registry ? `; registry ${registry}` : ''}; data ${event.data})`)
      }
      case 'registered':
        return write(`${event.rotated ? 'Rotated the api_key of' : 'Registered'} ${agentId} on ${registry} (handle ${printable(String(event.handle))}, identity key ${event.identity_key}; secrets in ${event.secrets})`)
      case 'credentials_rejected':
        return write(`! the stored api_key of ${agentId} was refused (${printable(error?.message ?? '')}); registering again with its identity key`)
      case 'heartbeat': {
        const warnings = Array.isArray(event.warnings) && event.warnings.length > 0 ? ` · ⚠ ${printable(event.warnings.join('; '))}` : ''
        return write(`\x1b[32m●\x1b[0m ${agentId} online on ${registry} · heartbeat #${event.beat} at ${time} · next in ${Math.round(Number(event.next_in_ms) / 1000)} s${warnings}`, true)
      }
      case 'retry':
        return write(`\x1b[33m●\x1b[0m ${agentId}: ${printable(error?.message ?? '')} · ${event.step === 'register' ? 'registering' : 'heartbeat'} retry ${event.attempt} in ${Math.ceil(Number(event.next_in_ms) / 1000)} s`, true)
      case 'card_invalid':
        return write(`! ${printable(error?.message ?? '')} (still pushing the last good card)`)
      case 'stopped':
        return write(`mesh agent ${agentId} stopped${registry ? ` after ${event.beats} heartbeat${event.beats === 1 ? '' : 's'}` : ''}`)
    }
  }
}
