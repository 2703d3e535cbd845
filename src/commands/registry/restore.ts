import {Args} from '@oclif/core'
import {resolve} from 'node:path'
import {backupFlags, formatBytes, refusePostgres} from '../../cli/backup-flags.js'
import {MeshCommand} from '../../cli/base-command.js'

export default class RegistryRestore extends MeshCommand {
  static override description = `Restore a backup made by \`mesh registry backup\` into a stopped registry's data dir.

Refused while a server runs on the data dir (its pid file <data>/mesh.pid names a live process) and when the file fails PRAGMA integrity_check. The database it replaces is kept as <data>/mesh.db.before-restore. Without --with-secrets the data dir keeps its own JWT secret and admin key (or makes new ones at the next start: agents then fetch new tokens); with it, they are restored from the file, which must hold them. Presence rows of the old nodes are dropped. A PostgreSQL registry is refused: use pg_restore (docs/operating.md, Backups).`

  static override examples = ['<%= config.bin %> registry restore /var/backups/mesh-2026-11-27.db --data /var/lib/mesh', '<%= config.bin %> registry restore mesh.db.bak --with-secrets']

  static override args = {file: Args.string({description: 'a backup file written by `mesh registry backup`', required: true})}

  static override flags = backupFlags

  async run() {
    const {args, flags} = await this.parse(RegistryRestore)
    refusePostgres(flags['database-url'], 'restore')
    const {checkDataDir} = await import('../../cli/serve-checks.js')
    const dataDir = resolve(flags.data)
    await checkDataDir(dataDir)
    const {mkdir} = await import('node:fs/promises')
    await mkdir(dataDir, {recursive: true, mode: 0o700})
    const {restoreRegistry} = await import('../../registry/backup.js')
    const summary = await restoreRegistry({dataDir, file: resolve(args.file), withSecrets: flags['with-secrets']})
    if (!this.jsonEnabled()) {
      this.log(
        `Restored ${summary.file} (${formatBytes(summary.bytes)}: ${summary.agents} agents, ${summary.messages} messages, ${summary.clusters} clusters) into ${dataDir}` +
          (summary.replaced ? `; the previous database is ${summary.replaced}` : '') +
          (summary.secrets_restored ? '; secrets restored' : '; the data dir keeps its own secrets'),
      )
    }
    return summary
  }
}
