import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import type {SnapshotRecord} from '../../daemon/project-writer.js'
import type {RestoreResult} from '../../daemon/snapshots/restore.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class DaemonRestore extends MeshCommand {
  static override description = `Bring back a snapshot of a project file (the bytes the daemon kept before it rewrote the file).

<file> is relative to .mesh/ (public/links.yaml), to the repository root (.mesh/public/links.yaml), or absolute inside .mesh/. Without --at or --before the latest snapshot is restored (undoing the last rewrite). --at T brings the file back as it was at T: the bytes the first rewrite after T replaced. --before W restores the snapshot the rewrite at W (a time --list shows), or the latest one before it, kept. The bytes a restore replaces are snapshotted first, so it can be undone the same way. With the daemon running the restore goes through it; otherwise it runs here, with the same checks.`

  static override examples = [
    '<%= config.bin %> daemon restore public/links.yaml --list',
    '<%= config.bin %> daemon restore public/links.yaml',
    '<%= config.bin %> daemon restore .mesh/public/cluster.yaml --at 2026-01-05T10:00:00Z',
    '<%= config.bin %> daemon restore public/links.yaml --at 2026-01-04',
    '<%= config.bin %> daemon restore public/links.yaml --before 2026-01-05T09:12:44.120Z',
  ]

  static override args = {
    file: Args.string({description: 'the file: relative to .mesh/ or to the repository root, or absolute inside .mesh/', required: true}),
  }

  static override flags = {
    at: Flags.string({description: 'restore the file as it was at this time: ISO-8601 with zone (2026-01-05T10:00:00Z) or a date (its end, UTC)', exclusive: ['list', 'before']}),
    before: Flags.string({description: 'restore the latest snapshot taken at or before this time (the bytes that rewrite replaced; --list shows the times)', exclusive: ['list', 'at']}),
    list: Flags.boolean({description: 'list the snapshots of the file (newest first) instead of restoring one'}),
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(DaemonRestore)
    const [{findProjectRoot, meshPath}, {toMeshRelative}, {snapshotTime}, {writeProject}] = await Promise.all([
      import('../../standard/project/project-root.js'),
      import('../../daemon/snapshots/paths.js'),
      import('../../daemon/snapshots/time.js'),
      import('../../cli/project-writes.js'),
    ])
    // Bad input is refused before anything is looked up.
    const at = flags.at === undefined ? undefined : snapshotTime(flags.at, 'usage_bad_time', '--at')
    const before = flags.before === undefined ? undefined : snapshotTime(flags.before, 'usage_bad_time', '--before')
    const root = await findProjectRoot(flags.dir ?? process.cwd())
    const path = toMeshRelative(root, args.file)

    if (flags.list) {
      const {via, result: listed} = await writeProject(root, {
        daemon: async (daemon) => (await daemon.call<{snapshots: SnapshotRecord[]}>('GET', `/snapshots?path=${encodeURIComponent(path)}`)).snapshots,
        local: (project) => this.listHere(project.root, path),
      })
      if (!this.jsonEnabled()) {
        if (!listed.length) this.log(`no snapshots of ${path}`)
        for (const record of listed) this.log(`${record.ts}  ${record.bytes} bytes  ${record.reason}  ${record.snapshot}`)
      }
      return {path, snapshots: listed, via}
    }

    const {via, result} = await writeProject(root, {
      daemon: (daemon) => daemon.call<RestoreResult>('POST', '/snapshots/restore', {path, at: flags.at, before: flags.before}),
      // No daemon: the same library, with the command's own project writer (it follows cluster.yaml's snapshots settings).
      local: async (project) => (await import('../../daemon/snapshots/restore.js')).restoreSnapshot({meshDir: meshPath(project.root), writer: project.writer, path, at, before}),
    })
    if (!this.jsonEnabled()) {
      this.log(`restored ${result.path} from the snapshot of ${result.restored.ts} (${result.bytes} bytes${via === 'daemon' ? ', through the daemon' : ''})`)
      if (result.undo) this.log(`the bytes it replaced are kept in ${result.undo.snapshot}; undo with: ${this.config.bin} daemon restore ${result.path} --before ${result.undo.ts}`)
      else this.log('nothing was kept of the replaced bytes (the file did not exist, or snapshots.enabled is false)')
    }
    return {...result, via}
  }

  private async listHere(root: string, path: string): Promise<SnapshotRecord[]> {
    const [{listSnapshots}, {meshPath}] = await Promise.all([import('../../daemon/snapshots/catalog.js'), import('../../standard/project/project-root.js')])
    return listSnapshots(meshPath(root), path)
  }
}
