import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {DEFAULT_ARCHIVE_DAYS} from '../../daemon/tasks/constants.js'

export default class TaskArchive extends MeshCommand {
  static override description = `Move done tasks to modules/<id>/log/<YYYY-MM>/, the month they were completed in.

A done task is archived once its completed_at (its updated date when it has none) is at least --older-than ago (default 30 days; 0 archives every done task). The file keeps its name and bytes; its id stays taken (mesh task create never reuses it) and depends_on still finds it. A task whose archive name is taken is left where it is, and said. With the project's daemon running the archive goes through it; otherwise it is done here. Either way the removed file is kept as a snapshot (mesh daemon restore).`

  static override examples = ['<%= config.bin %> task archive', '<%= config.bin %> task archive --older-than 0', '<%= config.bin %> task archive --older-than 90d --json']

  static override flags = {
    'older-than': Flags.string({description: 'archive done tasks completed at least this long ago: days (30d, 30) or hours (12h)', default: `${DEFAULT_ARCHIVE_DAYS}d`}),
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(TaskArchive)
    const [{actingAs}, {archiveTasksEither}, {parseAge}] = await Promise.all([
      import('../../cli/project-writes.js'),
      import('../../cli/task-writes.js'),
      import('../../standard/tasks/archive.js'),
    ])
    const olderThanMs = parseAge(flags['older-than'])
    const report = await archiveTasksEither(flags.dir, {olderThanMs, by: actingAs(undefined)})
    for (const task of report.archived) this.log(`archived ${task.id}  ${task.from} → ${task.to}`)
    for (const task of report.skipped) this.logToStderr(`Warning: ${task.id} (${task.path}) left where it is: ${task.reason}`)
    if (report.archived.length === 0) this.log(olderThanMs === 0 ? 'No done task to archive.' : `No done task completed ${flags['older-than']} ago or more to archive.`)
    return report
  }
}
