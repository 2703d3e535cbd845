import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {invalid} from '../../lib/errors.js'
import {createInitiative, INITIATIVE_STATUSES, type CreatedInitiative} from '../../standard/initiatives/index.js'
import {assertSlug} from '../../standard/tasks/index.js'

export default class InitiativeCreate extends MeshCommand {
  static override description = `Create a cross-module initiative in .mesh/roadmap/initiatives/.

With the project's daemon running the initiative is created through it (initiative.created on /events); otherwise it is written here.`

  static override examples = [
    '<%= config.bin %> initiative create --title "Self-serve onboarding"',
    '<%= config.bin %> initiative create --title "Auth" --id auth --module api --module web --tag security',
  ]

  static override flags = {
    title: Flags.string({char: 't', description: 'one-line title', required: true}),
    id: Flags.string({description: 'slug id (default: from the title; -2, -3… when taken)'}),
    status: Flags.string({description: 'status (default active)', options: [...INITIATIVE_STATUSES]}),
    owner: Flags.string({description: 'owner (default architect)'}),
    module: Flags.string({char: 'm', description: 'module it spans (repeatable)', multiple: true}),
    tag: Flags.string({description: 'tag (repeatable)', multiple: true}),
    parent: Flags.string({description: 'parent initiative id'}),
    by: Flags.string({description: 'who creates it: operator or a team member id (default: MESH_MEMBER in a turn, else operator)'}),
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(InitiativeCreate)
    const {actingAs, writeProject} = await import('../../cli/project-writes.js')
    const by = actingAs(flags.by)
    // Usage errors (exit 2) here, before the daemon is looked for.
    if (flags.title.trim() === '' || /[\r\n]/.test(flags.title)) throw invalid('usage_title_invalid', 'An initiative title is one non-empty line.', {field: 'title'})
    if (flags.id !== undefined) assertSlug(flags.id, 'id')
    const input = {title: flags.title, id: flags.id, status: flags.status, owner: flags.owner, modules: flags.module, tags: flags.tag}
    const {via, result: initiative} = await writeProject(flags.dir, {
      daemon: (daemon) => daemon.call<CreatedInitiative>('POST', '/initiatives', JSON.parse(JSON.stringify({...input, parent_initiative: flags.parent, by}))),
      // An exclusive create: it never writes over a file, so there is nothing to snapshot.
      local: ({root}) => createInitiative(root, {...input, parentInitiative: flags.parent}),
    })
    this.log(`created #${initiative.id}  ${initiative.path}`)
    return {...initiative, via}
  }
}
