import {Flags} from '@oclif/core'
import {MeshCommand} from '../cli/base-command.js'
import {projectDirFlag} from '../cli/project-dir.js'
import {MCP_CLIENTS, type McpClientName} from '../lib/mcp-config.js'

export default class Mcp extends MeshCommand {
  static override description = `Serve the project to an MCP client (Claude Code, Codex, Gemini CLI…) over stdio: tasks (list, show, create, move), the context tree, validate, the team (list, ask, delegate), the queue (add) and the timeline.

Through the running daemon (\`mesh serve\`); with none, the tools read the files and every write is refused until the daemon runs. Writes act as the operator, or as --member (default: MESH_MEMBER in a turn): the daemon's draft rule applies to a member, and a member at access level read may not write. --print-config prints what to paste into a client. See docs/mcp.md.`

  static override examples = ['<%= config.bin %> mcp', '<%= config.bin %> mcp --member developer', '<%= config.bin %> mcp --print-config claude']

  static override flags = {
    dir: projectDirFlag,
    member: Flags.string({description: 'act as this team member (default: MESH_MEMBER in a turn, else the operator)'}),
    access: Flags.string({description: 'at most this access level, below the member\'s own (a turn passes its level)', options: ['read', 'edit', 'full']}),
    conv: Flags.string({description: 'the conversation of the turn that runs it: a member\'s delegations come from it (default: MESH_CONV)'}),
    'print-config': Flags.string({description: 'print the snippet that adds this server to a client, and exit', options: [...MCP_CLIENTS]}),
  }

  async run() {
    const {flags} = await this.parse(Mcp)
    const [{actingAs}, {findProjectRoot}] = await Promise.all([import('../cli/project-writes.js'), import('../standard/project/project-root.js')])
    const by = actingAs(flags.member)
    if (flags['print-config']) {
      const {printedConfig} = await import('../cli/mcp/print-config.js')
      const args = ['mcp', ...(flags.member ? ['--member', flags.member] : [])]
      process.stdout.write(printedConfig(flags['print-config'] as McpClientName, {command: this.config.bin, args}))
      return
    }
    const root = await findProjectRoot(flags.dir ?? process.cwd())
    const {serveMcp} = await import('../cli/mcp/server.js')
    const access = flags.access as 'read' | 'edit' | 'full' | undefined
    await serveMcp({root, caller: {by, conv: flags.conv ?? (process.env.MESH_CONV?.trim() || null), ...(access ? {access} : {})}, version: this.config.version})
  }
}
