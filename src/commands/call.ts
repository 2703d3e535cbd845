import {Args, Flags} from '@oclif/core'
import {readFile} from 'node:fs/promises'
import {EXIT, MeshCommand} from '../cli/base-command.js'
import {assertAgentId} from '../cli/agent-id.js'
import {assertCredentialsDir} from '../cli/credentials-dir.js'
import {stdoutIsTTY} from '../cli/tty.js'
import {DEFAULT_REGISTRY_URL, REGISTRY_ENV} from '../client/registry/search-client.js'
import {isMeshError, MeshError} from '../lib/errors.js'
import {shellCommand} from '../lib/shell-quote.js'

const CREDENTIAL_ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** `--data`: JSON, `@file`, or `@-` for stdin; `{}` when absent. Anything else is a usage error (exit 2). */
async function readData(flag: string | undefined): Promise<unknown> {
  if (flag === undefined) return {}
  let text = flag
  let source = '--data'
  if (flag.startsWith('@')) {
    const file = flag.slice(1)
    source = file === '-' ? 'stdin' : file
    try {
      text = file === '-' ? await readStdin() : await readFile(file, 'utf8')
    } catch (error) {
      throw new MeshError('invalid', 'usage_data_file', `Cannot read --data @${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
    }
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new MeshError('invalid', 'usage_invalid_data', `${source} is not JSON: ${(error as Error).message}`)
  }
}

/** The raw arguments without any --proof, for the retry line. */
function withoutProof(argv: readonly string[]): string[] {
  const words: string[] = []
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--proof') i++
    else if (!argv[i].startsWith('--proof=')) words.push(argv[i])
  }
  return words
}

export default class Call extends MeshCommand {
  static override description = `Call a skill of an agent: POST <agent>/v1/<skill> with a JSON body, signed with your identity key (Mesh-Sig).

The agent is a URL, or an agent id resolved through the registry (its cached PublicCard gives the agent's url and skills). The call is signed with the identity key of the agent registered here (\`mesh register\`; --agent picks one when there are several), so the agent's free allowance counts against your key; without a key it goes unsigned (said on stderr). Prints the result as JSON (indented on a terminal).

A paid skill answers 402 with a payment challenge: it is shown (price in lamports and SOL, address, network, memo nonce, Solana Pay URI, the command to retry) and mesh exits 3. Pay, then run the same command with --proof <transaction signature>.`

  static override examples = [
    `<%= config.bin %> call https://echo.example.com echo --data '{"text":"hello"}'`,
    '<%= config.bin %> call translator translate --data @request.json --registry https://registry.example',
    `<%= config.bin %> call translator translate --data @request.json --proof 5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW`,
    `<%= config.bin %> call https://draw.example.com draw --data '{"prompt":"a fox"}' --credential-env OPENAI_API_KEY --json`,
  ]

  static override args = {
    target: Args.string({description: 'the agent to call: its URL (https://…) or its agent id on the registry', required: true}),
    skill: Args.string({description: 'the skill id (the card\'s skills[].id)', required: true}),
  }

  static override flags = {
    data: Flags.string({char: 'd', description: 'the JSON body, @file to read it from a file, @- from stdin (default {})'}),
    proof: Flags.string({description: 'transaction signature of the payment asked by a 402 (sent as X-Payment-Proof)'}),
    registry: Flags.string({description: `registry that resolves an agent id (default: where your agent registered, else ${DEFAULT_REGISTRY_URL})`, env: REGISTRY_ENV}),
    agent: Flags.string({char: 'a', description: 'registered agent whose identity key signs (default: the only agent registered here)'}),
    credentials: Flags.string({description: 'credentials folder of `mesh register` (default $MESH_CREDENTIALS_DIR or .mesh/credentials)'}),
    sign: Flags.boolean({description: 'sign with your identity key (--no-sign: send unsigned)', default: true, allowNo: true}),
    'credential-env': Flags.string({description: 'environment variable holding your own provider key, sent as Authorization: Bearer (bring-your-own-key skills); never printed'}),
    timeout: Flags.integer({description: 'seconds to wait for the skill', min: 1, max: 3600, default: 60}),
  }

  /** One compact line: the result of a skill is data for the next program. */
  protected override logJson(json: unknown): void {
    process.stdout.write(JSON.stringify(json) + '\n')
  }

  async run() {
    const {args, flags} = await this.parse(Call)
    const lib = await import('../client/agent/index.js')
    // Everything the user typed is checked before any file or network use.
    if (flags.agent !== undefined) assertAgentId(flags.agent, '--agent')
    if (flags.agent !== undefined && !flags.sign) throw new MeshError('invalid', 'usage_flag_conflict', '--agent names the key that signs and --no-sign sends no signature: pass one of them')
    if (flags.proof !== undefined && !lib.isTransactionSignature(flags.proof)) {
      throw new MeshError('invalid', 'usage_proof', '--proof must be the transaction signature of the payment (base58, 64 bytes)')
    }
    const credential = this.credentialFromEnv(flags['credential-env'])
    const input = await readData(flags.data)
    const signing = flags.sign ? await this.signingIdentity(flags) : null

    let resolved
    try {
      const {resolveRegistryUrl} = await import('../client/registry/search-client.js')
      const isUrl = args.target.includes('://')
      resolved = await lib.resolveAgentUrl(args.target, {skill: args.skill, registry: isUrl ? undefined : resolveRegistryUrl(flags.registry || signing?.registry)})
    } catch (error) {
      throw this.answered(error, '')
    }
    let answer
    try {
      answer = await lib.callAgent({
        agent: resolved.url,
        skill: args.skill,
        input,
        privateKey: signing?.privateKeyPem,
        proof: flags.proof,
        credential,
        timeoutMs: flags.timeout * 1000,
      })
    } catch (error) {
      throw this.answered(error, 'The agent answered')
    }

    if (answer.status === 'ok') {
      const text = this.jsonEnabled() || !stdoutIsTTY() ? JSON.stringify(answer.result) : JSON.stringify(answer.result, null, 2)
      process.stdout.write(text + '\n')
      return
    }
    // A 402 is an answer, not a failure of mesh: exit 3 tells a script to pay and retry.
    process.exitCode = EXIT.payment
    const retry = `${shellCommand([this.config.bin, 'call', ...withoutProof(this.argv)])} --proof <signature>`
    if (this.jsonEnabled()) {
      this.logJson({status: 'payment_required', agent: resolved.url, skill: args.skill, proof_refused: answer.proofRefused, challenge: lib.challengeJson(answer.challenge), retry})
      return
    }
    const called = `${args.skill} at ${resolved.url}`
    process.stderr.write(lib.formatChallenge(answer.challenge, {called, retry, proofRefused: answer.proofRefused}).join('\n') + '\n')
  }

  /** --credential-env: the variable's value (a usage error when it is unset); the value itself is never shown. */
  private credentialFromEnv(name: string | undefined): string | undefined {
    if (name === undefined) return undefined
    if (!CREDENTIAL_ENV_NAME.test(name)) throw new MeshError('invalid', 'usage_credential_env', `--credential-env takes the name of an environment variable, got "${name.slice(0, 64)}"`)
    const value = process.env[name]?.trim()
    if (!value) throw new MeshError('invalid', 'usage_credential_env', `The environment variable ${name} (--credential-env) is not set`)
    return value
  }

  /**
   * The identity key that signs: --agent's, else the only agent registered here.
   * None registered: the call goes unsigned, said on stderr (DECISIONS Free
   * allowance: an unsigned caller's allowance counts by its IP alone).
   */
  private async signingIdentity(flags: {agent?: string; credentials?: string}): Promise<{agentId: string; privateKeyPem: string; registry: string | undefined} | null> {
    const [creds, secrets, keys] = await Promise.all([import('../agent/credentials.js'), import('../identity/secrets.js'), import('../identity/keys.js')])
    const dir = await assertCredentialsDir(await creds.credentialsDir(flags.credentials))
    const profiles = await creds.readProfiles(dir)
    let agentId = flags.agent
    if (agentId === undefined) {
      const ids = Object.keys(profiles)
      if (ids.length === 0) {
        process.stderr.write(`mesh call: no identity key here (${dir}); the call goes unsigned, so the agent counts any free allowance by your IP alone. \`mesh register <agent_id>\` creates a key; --no-sign silences this note.\n`)
        return null
      }
      if (ids.length > 1) throw new MeshError('invalid', 'usage_agent_ambiguous', `Several agents are registered here (${ids.join(', ')}); pass --agent <id> to sign as one, or --no-sign`)
      agentId = ids[0]
    }
    const store = await secrets.openSecretStore({dir})
    const privateKeyPem = await store.get(creds.identityKeyName(agentId))
    if (!privateKeyPem) throw new MeshError('invalid', 'usage_no_identity_key', `No identity key for ${agentId} in ${store.location}; run \`mesh register ${agentId}\`, or pass --no-sign`)
    try {
      keys.importPrivateKey(privateKeyPem)
    } catch {
      // Never echo the key material; name where it is.
      throw new MeshError('invalid', 'identity_key_unreadable', `The identity key of ${agentId} in ${store.location} is not an Ed25519 private key (PKCS#8 PEM)`)
    }
    return {agentId, privateKeyPem, registry: profiles[agentId]?.registry}
  }

  /**
   * A server's refusal as the CLI shows it: its code kept, its status, field
   * and Retry-After in the message. Exit 1 always: a server's code that happens
   * to start with `usage_` must not pass for a usage error of this command.
   */
  private answered(error: unknown, prefix: string): unknown {
    if (!isMeshError(error) || typeof error.details?.status !== 'number') return error
    const status = error.details.status
    const retry = typeof error.details.retry_after === 'number' ? `; retry in ${error.details.retry_after} s` : ''
    const field = error.field ? ` (field ${error.field})` : ''
    const message = prefix ? `${prefix} ${status}: ${error.message}${field}${retry}` : `${error.message}${field}${retry}`
    // The base command maps kind `invalid` + code `usage_*` to exit 2; a server's code never should.
    const kind = error.kind === 'invalid' && error.code.startsWith('usage') ? 'forbidden' : error.kind
    return new MeshError(kind, error.code, message, {field: error.field, details: error.details})
  }
}
