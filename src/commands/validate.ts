import {relative, resolve, sep} from 'node:path'
import {Args, Flags} from '@oclif/core'
import {MESH_DIR} from '../protocol/daemon.js'
import {MeshCommand} from '../cli/base-command.js'
import {stdoutIsTTY} from '../cli/tty.js'

/**
 * `mesh validate [dir]`. Imports only oclif and the base command at load
 * time; the validator (ajv, yaml, simple-git) is imported inside run(), so
 * `mesh validate --help` stays fast.
 */
export default class Validate extends MeshCommand {
  static override description = `Check a mesh project folder against the .mesh/ standard.

Validates mesh.json and every file under .mesh/: JSON Schemas (schemas/), cross-file rules (task ids, categories, dependencies and cycles, the v13 module structure), governance R1–R6 for docs, context-tree word budgets, team cards, the deny-list in .gitignore, and secrets in committed files. Every rule is listed in docs/standard.md.

With --commits <range>, checks commit messages instead (Conventional Commits with [<task-id>], agent trailers, #<id> mentions).

Exit codes: 0 no error-level finding (warnings allowed), 1 at least one error, 2 usage error (bad flag, missing folder, bad range).`

  static override examples = [
    '<%= config.bin %> validate',
    '<%= config.bin %> validate path/to/repo --format github',
    '<%= config.bin %> validate --format sarif > mesh.sarif',
    '<%= config.bin %> validate --json',
    '<%= config.bin %> validate --commits origin/main..HEAD',
  ]

  static override args = {
    dir: Args.string({description: 'repository root holding mesh.json and .mesh/ (default: the nearest folder holding .mesh/, from the current one up; else the current one)'}),
  }

  static override flags = {
    format: Flags.string({
      char: 'f',
      description: 'output format (--json is the same as --format json)',
      options: ['human', 'json', 'github', 'sarif'],
      default: 'human',
    }),
    verbose: Flags.boolean({char: 'v', description: 'also list the paths that were not read, with why'}),
    commits: Flags.string({description: 'check the commit messages of a git revision range (e.g. origin/main..HEAD) instead of the folder'}),
  }

  async run() {
    const {args, flags} = await this.parse(Validate)
    const service = await import('../standard/validate/index.js')
    // From a subfolder the project is found as every command finds it (issue 23); with no .mesh/ above, the folder itself is judged.
    const {findUpFolder} = await import('../lib/find-up.js')
    const root = args.dir === undefined ? ((await findUpFolder(process.cwd(), MESH_DIR)) ?? process.cwd()) : resolve(args.dir)
    // `--commits ''` is a mistake to report, not a request to check the folder.
    const report = flags.commits === undefined ? await service.validateProject(root) : await service.validateCommits(root, flags.commits)
    if (!report.ok) process.exitCode = 1
    if (this.jsonEnabled()) return report

    const format = flags.format
    if (format === 'json') {
      this.log(JSON.stringify(report, null, 2))
    } else if (format === 'github') {
      this.log(service.formatGithub(report, workspacePrefix(root)))
    } else if (format === 'sarif') {
      this.log(JSON.stringify(service.formatSarif(report, {toolVersion: this.config.version, pathPrefix: workspacePrefix(root)}), null, 2))
    } else {
      const color = stdoutIsTTY() && !process.env.NO_COLOR
      this.log(service.formatHuman(report, {color, verbose: flags.verbose}))
    }
    return report
  }
}

/** Paths in annotations are relative to the working directory (the checkout in CI) when the folder is inside it. */
function workspacePrefix(root: string): string {
  const path = relative(process.cwd(), root)
  if (path === '' || path.startsWith('..') || resolve(path) !== root) return ''
  return path.split(sep).join('/') + '/'
}
