import {Flags} from '@oclif/core'
import {MeshCommand} from '../cli/base-command.js'
import {projectDirFlag} from '../cli/project-dir.js'

export default class Trust extends MeshCommand {
  static override description = `Trust this project's .mesh/agents/clients.yaml on this machine: show the commands it runs, then record the SHA-256 of its exact bytes for you.

The daemon runs a project's clients file only while you trust those bytes: a change to the file untrusts it again, and a file git tracks is never trusted (whoever can commit would choose what your machine runs). Your own ~/.config/mesh/clients.yaml (or $XDG_CONFIG_HOME/mesh/clients.yaml) needs no trust. --show prints the commands and the trust state without recording anything; --revoke forgets the file. See docs/daemon.md, Clients.`

  static override examples = ['<%= config.bin %> trust --show', '<%= config.bin %> trust', '<%= config.bin %> trust --revoke', '<%= config.bin %> trust --dir ../my-project --json']

  static override flags = {
    dir: projectDirFlag,
    show: Flags.boolean({description: 'print what the file runs and whether you trust it; record nothing', default: false, exclusive: ['revoke']}),
    revoke: Flags.boolean({description: 'forget the file: the daemon stops using it from its next turn', default: false, exclusive: ['show']}),
  }

  async run() {
    const {flags} = await this.parse(Trust)
    const [{findProjectRoot}, trust, {printable}, {shellCommand}] = await Promise.all([
      import('../standard/project/project-root.js'),
      import('../daemon/chat/clients/project-trust.js'),
      import('../client/printable.js'),
      import('../lib/shell-quote.js'),
    ])
    const root = await findProjectRoot(flags.dir ?? process.cwd())
    if (flags.revoke) {
      const revoked = await trust.revokeProjectClients({root})
      if (!this.jsonEnabled()) this.log(revoked.revoked ? `${revoked.file} is no longer trusted on this machine; the daemon stops using it from its next turn.` : `${revoked.file} was not trusted on this machine; nothing to revoke.`)
      return revoked
    }
    const view = flags.show ? await trust.inspectProjectClients({root}) : await trust.trustProjectClients({root})
    if (!this.jsonEnabled()) {
      // The file's words are shown as printable text: a hostile file must not drive the terminal.
      const shown = (argv: string[]) => printable(shellCommand(argv))
      this.log(`${view.file} (sha256 ${view.sha256.slice(0, 16)}…) runs:`)
      if (view.clients.length === 0) this.log('  (no clients)')
      for (const client of view.clients) {
        this.log(`  ${printable(client.name)}: ${shown(client.command)}`)
        if (client.resume) this.log(`  ${' '.repeat(printable(client.name).length)}  later turns: ${shown(client.resume)}`)
      }
      // issue 19: what each member's client may do is part of what is trusted.
      const levels = Object.entries(view.access)
      if (levels.length > 0) this.log(`and sets access: ${levels.map(([member, level]) => `${printable(member)} ${level}`).join(', ')}`)
      // issue 24: `mesh mcp` in a member's turns is one more process its client starts.
      if (view.mcp.length > 0) this.log(`and gives mesh mcp to the turns of: ${view.mcp.map(printable).join(', ')}`)
      if (flags.show) {
        const state = {trusted: 'You trust these bytes on this machine.', changed: 'It changed since you trusted it: the daemon does not use it until you run `mesh trust` again.', untrusted: 'You have not trusted it: the daemon does not use it until you run `mesh trust`.'}
        this.log(state[view.trust])
      } else {
        this.log('Trusted for you on this machine: the daemon uses it from its next turn. Any change to the file untrusts it; `mesh trust --revoke` forgets it.')
      }
    }
    return view
  }
}
