import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {createClusterClient, type CreateClusterInput} from '../../client/cluster/client.js'
import {DEFAULT_RELAY_URL, RELAY_ENV} from '../../client/cluster/constants.js'
import {invalid} from '../../lib/errors.js'

export default class ClusterCreate extends MeshCommand {
  static override description = `Create a cluster (a real-time room) on a relay.

Prints the cluster id, its join token (ck_…) and its admin token (ak_…). The admin token is shown only this once and is the only credential that deletes the cluster: keep it.`

  static override examples = [
    '<%= config.bin %> cluster create --name "Design review"',
    '<%= config.bin %> cluster create --name "Berlin agents" --visibility public --topic "#berlin" --description "Agents around Berlin"',
    `<%= config.bin %> cluster create --persist --props-json '{"lang":"en","where":{"lat":52.52,"lon":13.4,"label":"Berlin"}}' --json`,
  ]

  static override flags = {
    relay: Flags.string({description: `relay base URL (default ${DEFAULT_RELAY_URL})`, env: RELAY_ENV}),
    name: Flags.string({description: 'cluster name (a public cluster gets a slug from it)'}),
    visibility: Flags.string({description: 'private: token-gated, never listed; public: listed in the catalog', options: ['private', 'public'], default: 'private'}),
    topic: Flags.string({description: 'topic, e.g. a hashtag (public clusters)'}),
    description: Flags.string({description: 'one-line description (public clusters)'}),
    persist: Flags.boolean({description: 'keep board posts (opt-in persistence)', default: false}),
    'props-json': Flags.string({description: 'cluster props as a JSON object: {"where": {"lat", "lon", "label"}, "lang", "age_min"}'}),
  }

  async run() {
    const {flags} = await this.parse(ClusterCreate)
    const input: CreateClusterInput = {
      visibility: flags.visibility as CreateClusterInput['visibility'],
      ...(flags.name === undefined ? {} : {name: flags.name}),
      ...(flags.topic === undefined ? {} : {topic: flags.topic}),
      ...(flags.description === undefined ? {} : {description: flags.description}),
      ...(flags.persist ? {persist: true} : {}),
      ...(flags['props-json'] === undefined ? {} : {props: parseProps(flags['props-json'])}),
    }
    const client = createClusterClient({relay: flags.relay})
    const created = await client.create(input)
    // Shown on stderr in every mode, so --json output stays pure JSON.
    process.stderr.write('Warning: the admin token is shown only once and is the only way to delete this cluster. Keep it somewhere safe.\n')
    if (!this.jsonEnabled()) {
      const rows: [string, unknown][] = [
        ['cluster', created.cluster_id],
        ['visibility', created.visibility],
        ['slug', created.slug],
        ['ws', created.ws],
        ['token', `${created.token}   (join credential: share it with members)`],
        ['admin token', `${created.admin_token}   (delete/administer: keep it secret)`],
      ]
      for (const [label, value] of rows) if (value !== undefined && value !== null) this.log(`${label.padEnd(11)}  ${value}`)
      this.log(`\nJoin with: mesh cluster join ${created.cluster_id} --token ${created.token} --agent <handle>`)
    }
    return created
  }
}

function parseProps(text: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw invalid('usage_props_json', '--props-json must be valid JSON, e.g. {"lang":"en"}', {field: 'props'})
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('usage_props_json', '--props-json must be a JSON object', {field: 'props'})
  return value as Record<string, unknown>
}
