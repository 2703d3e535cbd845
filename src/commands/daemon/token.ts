import {MeshCommand} from '../../cli/base-command.js'
import {MeshError} from '../../lib/errors.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class DaemonToken extends MeshCommand {
  static override description = `Print the project's portal token (the Bearer token of the daemon's write routes and /events).

The token is the last word of the output, so \`$(mesh daemon token | awk '{print $NF}')\` works. It is a secret: treat the output like a password. A token file other users may read (any group or other permission bit) is refused, as the daemon refuses it: \`chmod 600\` it first.`

  static override examples = ['<%= config.bin %> daemon token', 'curl -H "Authorization: Bearer $(<%= config.bin %> daemon token | awk \'{print $NF}\')" http://127.0.0.1:5570/debug/tail']

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(DaemonToken)
    const [{findProjectRoot, meshPath}, {readPortalToken}, {assertPortalTokenPrivate}, {PORTAL_TOKEN_FILE}] = await Promise.all([
      import('../../standard/project/project-root.js'),
      import('../../client/daemon/locate.js'),
      import('../../daemon/portal-token.js'),
      import('../../protocol/daemon.js'),
    ])
    const root = await findProjectRoot(flags.dir ?? process.cwd())
    const token = await readPortalToken(root)
    if (!token) throw new MeshError('not_found', 'portal_token_missing', 'No portal token yet: it is created when the daemon first starts (`mesh serve`)')
    // Printed only from a file no one else may read: the daemon refuses such a file too.
    await assertPortalTokenPrivate(meshPath(root, PORTAL_TOKEN_FILE))
    if (!this.jsonEnabled()) this.log(`portal token: ${token}`)
    return {token}
  }
}
