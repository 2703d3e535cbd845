import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {findProjectRoot} from '../../standard/project/project-root.js'
import {standardStatus, type StandardStatus} from '../../standard/versioning/index.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class StandardStatusCommand extends MeshCommand {
  static override description = `Compare .mesh/STANDARD_VERSION with the canonical version and list the changelog entries in between.

The canonical version is read from --url, else $MESH_STANDARD_URL, else {site}/standard/version where {site} comes from mesh.json hub.docs. Offline, it says so and lists the entries built into mesh.`

  static override examples = [
    '<%= config.bin %> standard status',
    '<%= config.bin %> standard status --url https://mesh.dev/standard/version',
  ]

  static override flags = {
    url: Flags.string({description: 'URL of the canonical version (a single integer)'}),
    timeout: Flags.integer({description: 'milliseconds to wait for the network', default: 3000, min: 100, max: 60_000}),
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(StandardStatusCommand)
    const status = await standardStatus(await findProjectRoot(flags.dir), {url: flags.url, timeoutMs: flags.timeout})
    const installed = status.installed === null ? 'none (.mesh/STANDARD_VERSION is missing)' : `v${status.installed}`
    this.log(`installed  ${installed}`)
    if (status.online) this.log(`canonical  v${status.canonical}  (${status.version_url})`)
    else this.log(`canonical  unknown: offline — ${status.offline_reason}`)
    const summary: Record<StandardStatus['state'], string> = {
      current: 'Up to date.',
      behind: `Behind by ${(status.canonical ?? 0) - (status.installed ?? 0)} version(s): apply the entries below, then run \`mesh standard migrate\`.`,
      ahead: `Installed is newer than the canonical version.`,
      unknown: status.installed !== null && status.installed >= status.builtin_latest
        ? `Installed is at least v${status.builtin_latest}, the newest this mesh knows.`
        : `Entries newer than the installed version that this mesh knows (up to v${status.builtin_latest}):`,
    }
    this.log(summary[status.state])
    if (status.entries.length > 0) {
      this.log(`\nChangelog (${status.changelog_source}):`)
      for (const entry of status.entries) this.log(`  v${entry.version}  ${entry.text.replace(/\n+/g, ' ')}`)
    }
    return status
  }
}
