import {Args} from '@oclif/core'
import {resolve} from 'node:path'
import {backupFlags, formatBytes, refusePostgres} from '../../cli/backup-flags.js'
import {MeshCommand} from '../../cli/base-command.js'

export default class RegistryBackup extends MeshCommand {
  static override description = `Copy a registry's SQLite data dir into one file, consistently, while the server runs.

Uses SQLite's online backup of <data>/mesh.db (never a file copy): the server keeps serving and writing. The file is written atomically with mode 0600 and checked with PRAGMA integrity_check; then the command says what it holds (agents, messages, clusters, size). The JWT signing secret and the admin key are left out unless --with-secrets. A PostgreSQL registry is refused: use pg_dump (docs/operating.md, Backups).`

  static override examples = [
    '<%= config.bin %> registry backup /var/backups/mesh-$(date +%F).db --data /var/lib/mesh',
    '<%= config.bin %> registry backup mesh.db.bak --with-secrets --json',
  ]

  static override args = {file: Args.string({description: 'the backup file to write (replaced atomically if it exists)', required: true})}

  static override flags = backupFlags

  async run() {
    const {args, flags} = await this.parse(RegistryBackup)
    refusePostgres(flags['database-url'], 'backup')
    const {checkDataDir} = await import('../../cli/serve-checks.js')
    const dataDir = resolve(flags.data)
    await checkDataDir(dataDir)
    const {backupRegistry} = await import('../../registry/backup.js')
    const summary = await backupRegistry({dataDir, file: resolve(args.file), withSecrets: flags['with-secrets']})
    if (!this.jsonEnabled()) {
      this.log(
        `Backed up ${dataDir} to ${summary.file} (${formatBytes(summary.bytes)}): ${summary.agents} agents, ${summary.messages} messages, ${summary.clusters} clusters; ${summary.secrets ? 'with' : 'without'} secrets`,
      )
    }
    return summary
  }
}
