import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class ClusterLink extends MeshCommand {
  static override description = `Link this project to its cluster on the hub's relay.

Creates the project's cluster on the hub (mesh.json hub.url, or --hub), or adopts the one this machine created for it before (its admin token is kept in .mesh/credentials/cluster.json), then writes cluster.yaml transport.endpoint, the mesh.json cluster block (invite: null for a private cluster) and, for a private cluster, .mesh/credentials/invite.url (mode 0600, never committed). A running daemon writes them itself and reconnects to the new endpoint at once. A hub that cannot be reached or refuses changes nothing. See docs/network.md.`

  static override examples = ['<%= config.bin %> cluster link', '<%= config.bin %> cluster link --hub https://hub.example --visibility public --json']

  static override flags = {
    dir: projectDirFlag,
    hub: Flags.string({description: 'hub URL whose relay holds the cluster (default mesh.json hub.url; a new hub is written there)'}),
    visibility: Flags.string({description: 'private: token-gated, never listed (default); public: listed in the hub catalog', options: ['private', 'public']}),
    name: Flags.string({description: "the cluster's name (default cluster.yaml name)"}),
  }

  async run() {
    const {flags} = await this.parse(ClusterLink)
    const {linkProject} = await import('../../cli/cluster-link.js')
    const linked = await linkProject({dir: flags.dir, hub: flags.hub, visibility: flags.visibility as 'private' | 'public' | undefined, name: flags.name})
    if (!this.jsonEnabled()) {
      this.log(`${linked.outcome === 'created' ? 'Created' : 'Adopted'} the ${linked.visibility} cluster ${linked.cluster_id} on ${linked.hub}`)
      this.log(`  endpoint  ${linked.endpoint}`)
      this.log(`  invite    ${linked.visibility === 'private' ? '.mesh/credentials/invite.url (0600, never committed)' : 'none needed (public)'}`)
      this.log(`  written   ${linked.via === 'daemon' ? 'by the running daemon, which reconnects now' : 'here (no daemon running)'}`)
    }
    return linked
  }
}
