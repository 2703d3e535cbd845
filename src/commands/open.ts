import {Flags} from '@oclif/core'
import {MeshCommand} from '../cli/base-command.js'
import {projectDirFlag} from '../cli/project-dir.js'

interface LoginCode {
  code: string
  url: string
  expires_at: string
}

export default class Open extends MeshCommand {
  // `mesh ide` runs it too; hidden so that --help lists the command once.
  static override hiddenAliases = ['ide']

  static override description = `Open the project's IDE (the board) in your browser, logged in (also \`mesh ide\`).

Asks the running daemon for a one-time login link (it works once, within 60 seconds) and opens it in the default browser; the browser gets a session for this run of the daemon, and the portal token never reaches the page. With --print, or where no browser can be shown (an SSH session, no display), the link is printed instead: open it in a browser on this machine. Needs \`mesh serve\` running in the project. docs/ide.md.`

  static override examples = ['<%= config.bin %> open', '<%= config.bin %> open --print', '<%= config.bin %> ide --json | jq -r .url']

  static override flags = {
    dir: projectDirFlag,
    print: Flags.boolean({description: 'print the one-time login link instead of opening a browser'}),
  }

  async run() {
    const {flags} = await this.parse(Open)
    const [{connectDaemon}, {browserOpener, openInBrowser}] = await Promise.all([import('../cli/daemon-session.js'), import('../cli/open-browser.js')])
    const daemon = await connectDaemon(flags.dir)
    const login = await daemon.call<LoginCode>('POST', '/ide/login-code')
    // --json never starts a browser: its output is for a program, which opens the url itself.
    const opener = flags.print || this.jsonEnabled() ? null : browserOpener()
    const opened = opener !== null && (await openInBrowser(login.url, opener))
    if (!this.jsonEnabled()) {
      if (opened) this.log(`Opened the IDE in your browser (${daemon.url}/).`)
      else {
        if (!flags.print) this.log('No browser could be opened here.')
        this.log('Open this link in a browser on this machine within 60 seconds (it works once):')
        this.log(login.url)
      }
    }
    return {url: login.url, expires_at: login.expires_at, opened}
  }
}
