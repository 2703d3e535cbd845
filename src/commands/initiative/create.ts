import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {createInitiative, INITIATIVE_STATUSES} from '../../standard/initiatives/index.js'
import {findProjectRoot} from '../../standard/tasks/index.js'
import {projectDirFlag} from '../../cli/project-dir.js'

export default class InitiativeCreate extends MeshCommand {
  static override description = 'Create a cross-module initiative in .mesh/roadmap/initiatives/.'

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
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(InitiativeCreate)
    const initiative = await createInitiative(await findProjectRoot(flags.dir), {
      title: flags.title,
      id: flags.id,
      status: flags.status,
      owner: flags.owner,
      modules: flags.module,
      tags: flags.tag,
      parentInitiative: flags.parent,
    })
    this.log(`created #${initiative.id}  ${initiative.path}`)
    return initiative
  }
}
