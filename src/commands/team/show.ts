import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {checkMemberId, memberIdArg, memberRoute} from '../../cli/team-input.js'
import type {MemberCard} from '../../daemon/team/cards.js'

export default class TeamShow extends MeshCommand {
  static override description = `Show one team member: its card's fields and its prompt.

An exposed member also shows where its public agent card is served (while the daemon runs). Its member token is not shown: \`mesh team expose <id>\` prints it. With no daemon running the card is read from disk (a note on stderr says so; --json has source: "files").`

  static override examples = ['<%= config.bin %> team show developer', '<%= config.bin %> team show developer --json | jq -r .prompt']

  static override args = {id: memberIdArg}

  static override flags = {
    dir: projectDirFlag,
  }

  async run() {
    const {args, flags} = await this.parse(TeamShow)
    const id = checkMemberId(args.id)
    const [{readProject, FILES_NOTE}, {memberDetail}] = await Promise.all([import('../../cli/project-reads.js'), import('../../cli/team-render.js')])
    let daemonUrl: string | undefined
    const {source, result: member} = await readProject<MemberCard>(flags.dir, {
      daemon(session) {
        daemonUrl = session.url
        return session.call<MemberCard>('GET', memberRoute(id))
      },
      files: async (reader) => (await import('../../daemon/team/cards.js')).readMember(reader, id),
    })
    if (!this.jsonEnabled()) {
      if (source === 'files') process.stderr.write(`${FILES_NOTE} (.mesh/team/${id}.md)\n`)
      for (const line of memberDetail(member, daemonUrl)) this.log(line)
    }
    return {...member, source}
  }
}
