import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {migrateStandard, type MigrationReport} from '../../standard/versioning/index.js'

export default class StandardMigrate extends MeshCommand {
  static override description = `Apply the built-in migrations and raise .mesh/STANDARD_VERSION to the newest version this mesh knows.

Team cards (v36–v38): retired fields (name, kind, required, agent_type, pinned_order, owns, never, delegates_to, refs, credentials_hint) are dropped; a missing title is taken from name, a missing id from the file name. The card's body is kept byte for byte. With the project's daemon running the migration goes through it (snapshots, team.updated on /events); otherwise it runs here, with snapshots too.`

  static override examples = ['<%= config.bin %> standard migrate --dry-run', '<%= config.bin %> standard migrate']

  static override flags = {
    'dry-run': Flags.boolean({description: 'report what would change; write nothing', default: false}),
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(StandardMigrate)
    const [{writeProject}, {MIGRATE_REASON}] = await Promise.all([import('../../cli/project-writes.js'), import('../../daemon/authoring/constants.js')])
    const {via, result: report} = await writeProject(flags.dir, {
      daemon: (daemon) => daemon.call<MigrationReport>('POST', '/standard/migrate', {dry_run: flags['dry-run']}),
      local: (project) => migrateStandard(project.root, {dryRun: flags['dry-run'], write: project.writeWith(MIGRATE_REASON)}),
    })
    const would = report.dry_run ? 'would change' : 'changed'
    for (const file of report.changed) {
      const what = [...(file.dropped.length > 0 ? [`dropped ${file.dropped.join(', ')}`] : []), ...(file.filled.length > 0 ? [`filled ${file.filled.join(', ')}`] : [])]
      this.log(`${would}  ${file.path}  (${what.join('; ')})`)
    }
    for (const file of report.skipped) this.logToStderr(`Warning: skipped ${file.path}: ${file.reason}`)
    if (report.changed.length === 0) this.log('No team card needs migrating.')
    const from = report.from === null ? 'none' : `v${report.from}`
    if (report.bumped) this.log(`${report.dry_run ? 'would raise' : 'raised'} STANDARD_VERSION ${from} → v${report.to}`)
    else this.log(`STANDARD_VERSION already v${report.to}.`)
    if (report.manual.length > 0) {
      this.log(`\nNot automatic — read and apply by hand: ${report.manual.map((entry) => `v${entry.version}`).join(', ')} (\`mesh standard status\` shows them).`)
    }
    return {...report, via}
  }
}
