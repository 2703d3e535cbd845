import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../cli/base-command.js'
import {DEFAULT_REGISTRY_URL, REGISTRY_ENV} from '../client/registry/search-client.js'
import {assertAgentId} from '../cli/agent-id.js'
import {assertCredentialsDir} from '../cli/credentials-dir.js'
import {printable} from '../client/printable.js'
import {MeshError} from '../lib/errors.js'
import {AGENT_ID_RULE} from '../protocol/registry.js'

export default class Register extends MeshCommand {
  static override description = `Register an agent on a registry, with an Ed25519 identity key bound by a signed proof.

Creates the agent's identity key (or reuses the one kept for this agent id), registers with a Mesh-Sig signed by it, and keeps the private key and the api_key in the OS keychain (service "mesh") — or, where no keychain answers (headless Linux, CI), in 0600 files under --credentials. Registering an id you already own (same identity key) rotates its api_key.`

  static override examples = [
    '<%= config.bin %> register my-agent --endpoint https://agent.example --capabilities translate,french',
    '<%= config.bin %> register my-agent --registry https://registry.example --json',
  ]

  static override args = {
    agent_id: Args.string({description: `agent id: ${AGENT_ID_RULE}`, required: true}),
  }

  static override flags = {
    registry: Flags.string({description: `registry base URL (default ${DEFAULT_REGISTRY_URL})`, env: REGISTRY_ENV}),
    endpoint: Flags.string({description: "the agent's own address (https://…)"}),
    capabilities: Flags.string({description: 'comma-separated capabilities (= the card tags; at most 12, each ≤ 50 chars)'}),
    description: Flags.string({description: 'one paragraph, ≤ 500 characters'}),
    credentials: Flags.string({description: "folder for file-stored secrets (default: the project's .mesh/credentials, found from any subfolder); identities go to agents/<id>.yaml beside a credentials/ folder, else inside it"}),
    'show-api-key': Flags.boolean({description: 'also print the api_key (it is stored either way)', default: false}),
  }

  async run() {
    const {args, flags} = await this.parse(Register)
    assertAgentId(args.agent_id)
    const [{resolveRegistryUrl, createRegistryClient}, secrets, creds] = await Promise.all([
      import('../client/registry/registry-client.js'),
      import('../identity/secrets.js'),
      import('../agent/credentials.js'),
    ])
    const registry = resolveRegistryUrl(flags.registry)
    creds.assertLocalAgentId(args.agent_id)
    const dir = await assertCredentialsDir(await creds.credentialsDir(flags.credentials))
    // An unreadable identity file (or agents.json to migrate) must stop us before the registry hands out an api_key we could not record.
    await creds.readProfiles(dir)
    const store = await secrets.openSecretStore({dir})

    // Saved before registering, so a crash in between never loses a bound key.
    const {pem: privateKeyPem, pubkey, created: createdKey} = await creds.identityKeyOf(store, args.agent_id)
    const capabilities = flags.capabilities?.split(',').map((c) => c.trim()).filter(Boolean)
    const client = createRegistryClient({registry})
    const answer = await client.register(
      {agent_id: args.agent_id, pubkey, ...(capabilities ? {capabilities} : {}), ...(flags.endpoint ? {endpoint: flags.endpoint} : {}), ...(flags.description ? {description: flags.description} : {})},
      privateKeyPem,
    )
    try {
      await store.set(creds.apiKeyName(args.agent_id, registry), answer.api_key)
    } catch (error) {
      throw new MeshError('internal', 'secret_store_failed', `Registered, but the api_key could not be stored (${(error as Error).message}); run \`mesh register ${args.agent_id}\` again to rotate it`)
    }
    let identityFile: string
    try {
      identityFile = await creds.saveProfile(dir, args.agent_id, {registry, pubkey: answer.pubkey, did: answer.did, handle: answer.handle, secrets: store.backend, registered_at: new Date().toISOString()})
    } catch (error) {
      throw new MeshError('internal', 'profile_save_failed', `Registered ${args.agent_id} and stored its api_key, but ${creds.agentsDirOf(dir)}/${args.agent_id}.yaml could not be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); pass --agent ${args.agent_id} --registry ${registry} to later commands`)
    }

    const result = {
      agent_id: answer.agent_id,
      registry,
      handle: answer.handle,
      did: answer.did,
      pubkey: answer.pubkey,
      verified: answer.verified,
      rotated: answer.rotated,
      identity_key: createdKey ? 'created' : 'reused',
      secrets_backend: store.backend,
      secrets_location: store.location,
      identity_file: identityFile,
      ...(flags['show-api-key'] ? {api_key: answer.api_key} : {}),
    }
    if (!this.jsonEnabled()) {
      this.log(`${answer.rotated ? 'Rotated the api_key of' : 'Registered'} ${answer.agent_id} on ${registry}`)
      this.log(`  handle    ${printable(answer.handle)}`)
      this.log(`  identity  ${printable(String(answer.did))} (${createdKey ? 'new key' : 'existing key'}, verified)`)
      this.log(`  file      ${identityFile}`)
      this.log(`  secrets   ${store.backend === 'keychain' ? store.location : `files in ${store.location} (no OS keychain answered)`}`)
      if (flags['show-api-key']) this.log(`  api_key   ${answer.api_key}`)
      this.log(`Next: mesh agent up --card <card.json>${flags.registry ? ` --registry ${registry}` : ''}`)
    }
    return result
  }
}
