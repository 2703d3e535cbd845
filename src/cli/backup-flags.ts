/**
 * What `mesh registry backup` and `mesh registry restore` share: the data
 * dir as the server reads it, `--with-secrets`, and the refusal of a
 * PostgreSQL deployment, whose backups are `pg_dump`'s (docs/operating.md).
 */
import {Flags} from '@oclif/core'
import {MeshError} from '../lib/errors.js'
import {dataFlag} from './server-flags.js'

export const backupFlags = {
  data: dataFlag,
  'with-secrets': Flags.boolean({
    description: "include the registry's JWT signing secret and admin key (the file is 0600 either way; keep it like a password then)",
    default: false,
  }),
  // The server's own variable: a shell set up for a PostgreSQL registry is refused here rather than backed up wrongly.
  'database-url': Flags.string({description: 'the PostgreSQL URL the registry uses, if any: refused, see the pg_dump recipe', env: 'MESH_DATABASE_URL', hidden: true}),
}

/** Refuses a PostgreSQL deployment with the pointer to the recipe. */
export function refusePostgres(databaseUrl: string | undefined, verb: 'backup' | 'restore'): void {
  if (!databaseUrl) return
  throw new MeshError(
    'invalid',
    'postgres_not_supported',
    `mesh registry ${verb} works on a SQLite data dir; this registry uses PostgreSQL (--database-url / MESH_DATABASE_URL): use pg_dump and pg_restore as docs/operating.md shows (Backups, PostgreSQL)`,
  )
}

/** Bytes for people: 1.2 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(1)} ${units[unit]}`
}
