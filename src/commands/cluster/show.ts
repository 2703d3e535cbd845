import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {createClusterClient} from '../../client/cluster/client.js'
import {DEFAULT_RELAY_URL, RELAY_ENV} from '../../client/cluster/constants.js'
import {terminalSafe} from '../../client/cluster/text.js'

export default class ClusterShow extends MeshCommand {
  static override description = `Show one public cluster by id or slug. Private and unknown clusters both answer "not found" (a private id cannot be probed).`

  static override examples = ['<%= config.bin %> cluster show berlin-agents', '<%= config.bin %> cluster show c_3kT9… --json']

  static override args = {
    cluster: Args.string({description: 'cluster id (c_…) or slug', required: true}),
  }

  static override flags = {
    relay: Flags.string({description: `relay base URL (default ${DEFAULT_RELAY_URL})`, env: RELAY_ENV}),
  }

  async run() {
    const {args, flags} = await this.parse(ClusterShow)
    const cluster = await createClusterClient({relay: flags.relay}).get(args.cluster)
    if (!this.jsonEnabled()) {
      const width = Math.max(...Object.keys(cluster).map((key) => key.length))
      for (const [key, value] of Object.entries(cluster)) {
        if (value === undefined) continue
        this.log(terminalSafe(`${key.padEnd(width)}  ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`))
      }
    }
    return {cluster}
  }
}
