import {resolve} from 'node:path'
import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../cli/base-command.js'
import {canPrompt} from '../cli/tty.js'
import {checkAnswer, completeAnswers, PROJECT_TYPES, readExistingAnswers, scaffoldProject, type InitAnswers} from '../standard/scaffold/index.js'

export default class Init extends MeshCommand {
  static override description = `Scaffold the .mesh/ project standard into a repository.

Writes mesh.json, .mesh/ (cluster.yaml, context, team, docs, modules, instructions, resources) and CLAUDE.md, AGENTS.md, GEMINI.md, and appends the deny-list to .gitignore. Never overwrites: a file that exists is reported as kept, so running it again only fills gaps.`

  static override examples = [
    '<%= config.bin %> init',
    '<%= config.bin %> init ./my-repo --name "My app" --type service --yes',
    '<%= config.bin %> init --json --yes',
    '<%= config.bin %> init --hub https://hub.example --link --yes',
  ]

  static override args = {
    dir: Args.string({description: 'repository folder (created if missing)', default: '.'}),
  }

  static override flags = {
    name: Flags.string({description: 'project name (cluster.yaml name)'}),
    id: Flags.string({description: 'project id, 2–40 of a-z 0-9 - (default: from the name)'}),
    type: Flags.string({description: 'project type', options: [...PROJECT_TYPES]}),
    hub: Flags.string({description: 'hub URL (mesh.json hub.url)'}),
    'hub-docs': Flags.string({description: 'hub docs URL (mesh.json hub.docs; default <hub>/docs)'}),
    yes: Flags.boolean({char: 'y', description: 'take defaults for everything not given, without asking', default: false}),
    link: Flags.boolean({description: "then link the project to its cluster on the hub's relay, as `mesh cluster link` does (a private cluster)", default: false}),
  }

  async run() {
    const {args, flags} = await this.parse(Init)
    const root = resolve(args.dir)
    const fromFlags: Partial<InitAnswers> = {
      ...(flags.name === undefined ? {} : {name: checkAnswer.name(flags.name)}),
      ...(flags.id === undefined ? {} : {id: checkAnswer.id(flags.id)}),
      ...(flags.type === undefined ? {} : {type: checkAnswer.type(flags.type)}),
      ...(flags.hub === undefined ? {} : {hub: checkAnswer.url(flags.hub, 'hub')}),
      ...(flags['hub-docs'] === undefined ? {} : {hubDocs: checkAnswer.url(flags['hub-docs'], 'docs')}),
    }
    // A re-run keeps the identity already written down; flags win over it.
    let given: Partial<InitAnswers> = {...(await readExistingAnswers(root)), ...fromFlags}
    const missing = (['name', 'id', 'type', 'hub'] as const).filter((key) => given[key] === undefined)
    if (missing.length > 0 && !flags.yes) {
      if (canPrompt() && !this.jsonEnabled()) {
        const {promptAnswers} = await import('../standard/scaffold/prompt.js')
        given = await promptAnswers(given, root, {input: process.stdin, output: process.stdout})
      } else {
        this.logToStderr(`No terminal to ask on: using defaults for ${missing.join(', ')} (pass them as flags, or --yes to take defaults quietly).`)
      }
    }
    const answers = completeAnswers(given, root)
    const result = await scaffoldProject(root, answers)
    const width = Math.max(...result.files.map((file) => file.outcome.length))
    for (const file of result.files) {
      this.log(`${file.outcome.padEnd(width)}  ${file.path}${file.note ? `  (${file.note})` : ''}`)
    }
    const count = (outcome: string) => result.files.filter((file) => file.outcome === outcome).length
    this.log(`\n${answers.name} (${answers.id}): ${count('created')} created, ${count('updated')} updated, ${count('kept')} kept. Next: \`mesh validate\`${flags.link ? '' : ', then \`mesh cluster link\` to give the project its cluster'}.`)
    const scaffolded = {root, answers: {name: answers.name, id: answers.id, type: answers.type, hub: answers.hub, hub_docs: answers.hubDocs}, files: result.files}
    if (!flags.link) return scaffolded
    // The scaffold stays whatever the hub says; a hub that cannot be reached or refuses writes nothing of the link.
    const {linkProject} = await import('../cli/cluster-link.js')
    const linked = await linkProject({dir: root})
    this.log(`${linked.outcome === 'created' ? 'Linked to the new' : 'Linked to its'} ${linked.visibility} cluster ${linked.cluster_id} on ${linked.hub} (${linked.endpoint}).`)
    return {...scaffolded, cluster: linked}
  }
}
