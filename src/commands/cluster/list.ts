import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {createClusterClient} from '../../client/cluster/client.js'
import {DEFAULT_RELAY_URL, RELAY_ENV} from '../../client/cluster/constants.js'
import {table} from '../../client/cluster/text.js'

export default class ClusterList extends MeshCommand {
  static override description = `List the public clusters of a relay (its catalog). Private clusters are never listed.`

  static override examples = ['<%= config.bin %> cluster list', '<%= config.bin %> cluster list --relay https://relay.example --json']

  static override flags = {
    relay: Flags.string({description: `relay base URL (default ${DEFAULT_RELAY_URL})`, env: RELAY_ENV}),
  }

  async run() {
    const {flags} = await this.parse(ClusterList)
    const client = createClusterClient({relay: flags.relay})
    const catalog = await client.list()
    if (!this.jsonEnabled()) {
      if (catalog.clusters.length === 0) this.log(`No public clusters on ${client.relay}.`)
      const rows = catalog.clusters.map((item) => [item.id, item.slug ?? item.name ?? '', String(item.online ?? ''), item.topic ?? '', item.description ?? ''])
      if (rows.length > 0) for (const line of table([['ID', 'SLUG/NAME', 'ONLINE', 'TOPIC', 'DESCRIPTION'], ...rows])) this.log(line)
    }
    return catalog
  }
}
