import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {createClusterClient} from '../../client/cluster/client.js'
import {DEFAULT_RELAY_URL, RELAY_ENV} from '../../client/cluster/constants.js'
import {invalid} from '../../lib/errors.js'

export default class ClusterDelete extends MeshCommand {
  static override description = `Delete a cluster for good with its admin token (ak_…).

Every connected member receives a "closed" frame with reason "deleted" and is disconnected; the id then behaves as if it never existed. There is no undo.`

  static override examples = ['<%= config.bin %> cluster delete c_3kT9… --admin-token ak_…', 'MESH_CLUSTER_ADMIN_TOKEN=ak_… <%= config.bin %> cluster delete c_3kT9… --json']

  static override args = {
    cluster: Args.string({description: 'cluster id (c_…)', required: true}),
  }

  static override flags = {
    relay: Flags.string({description: `relay base URL (default ${DEFAULT_RELAY_URL})`, env: RELAY_ENV}),
    'admin-token': Flags.string({description: 'the admin token (ak_…) printed at creation', env: 'MESH_CLUSTER_ADMIN_TOKEN', required: true}),
  }

  async run() {
    const {args, flags} = await this.parse(ClusterDelete)
    // spec: Authentication — the ck_ token is refused for delete; say so before the relay does.
    if (flags['admin-token'].startsWith('ck_')) {
      throw invalid('usage_admin_token', 'That is the join token (ck_…); delete needs the admin token (ak_…) printed at creation')
    }
    const result = await createClusterClient({relay: flags.relay}).delete(args.cluster, flags['admin-token'])
    this.log(`Deleted cluster ${result.cluster_id}.`)
    return result
  }
}
