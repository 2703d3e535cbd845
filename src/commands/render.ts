import {Flags} from '@oclif/core'
import {MeshCommand} from '../cli/base-command.js'
import {invalid} from '../lib/errors.js'
import {renderAgentInstructions, renderResources} from '../standard/render/index.js'
import {findProjectRoot} from '../standard/project/project-root.js'
import {projectDirFlag} from '../cli/project-dir.js'

export default class Render extends MeshCommand {
  static override description = `Render .mesh/public/AGENT_INSTRUCTIONS.md into CLAUDE.md, AGENTS.md and GEMINI.md.

Each target becomes the source byte for byte, except its own operator block (between the mesh:operator markers), which is kept exactly as it is; a new target gets the source's operator block. A target that is a symbolic link (CLAUDE.md → AGENTS.md) is left as it is. Missing or out-of-order markers in any file stop the render before anything is written (exit 1).
With --resources <file>, also replaces the mirrored part of .mesh/public/RESOURCES.md (everything above <!-- mesh:resources:end -->) with that file's text; the text below the marker is kept byte for byte. RESOURCES.md is written through the project's daemon when it runs (the one writer of .mesh/), otherwise here; the three targets at the repository root are always written here.`

  static override examples = [
    '<%= config.bin %> render',
    '<%= config.bin %> render --check',
    '<%= config.bin %> render --resources ./resources.md',
  ]

  static override flags = {
    check: Flags.boolean({description: 'write nothing; exit 1 when a file is out of date', default: false}),
    resources: Flags.string({description: 'file with the canonical resources text for RESOURCES.md ("-" for stdin)'}),
    dir: projectDirFlag,
  }

  async run() {
    const {flags} = await this.parse(Render)
    const root = await findProjectRoot(flags.dir)
    let canonical: string | undefined
    if (flags.resources !== undefined) canonical = await readCanonical(flags.resources)
    const check = flags.check
    // Targets first: a refusal there leaves RESOURCES.md untouched too.
    const targets = await renderAgentInstructions(root, {check: true})
    const resources = canonical === undefined ? undefined : await renderResources(root, canonical, {check: true})
    let via: 'daemon' | 'local' | undefined
    if (!check) {
      await renderAgentInstructions(root)
      if (canonical !== undefined) {
        const text = canonical
        const [{writeProject}, {RESOURCES_REASON}] = await Promise.all([import('../cli/project-writes.js'), import('../daemon/authoring/constants.js')])
        ;({via} = await writeProject(root, {
          daemon: (daemon) => daemon.call('POST', '/render/resources', {text}),
          local: (project) => renderResources(project.root, text, {write: project.writeWith(RESOURCES_REASON)}),
        }))
      }
    }
    const files: Array<{path: string; outcome: string; link?: string}> = [...targets, ...(resources ? [resources] : [])]
    const changes = (outcome: string) => outcome === 'created' || outcome === 'updated'
    const verb = (outcome: string) => (check && changes(outcome) ? `would be ${outcome}` : outcome)
    for (const file of files) this.log(`${verb(file.outcome).padEnd(16)}  ${file.path}${file.link === undefined ? '' : ` → ${file.link} (symbolic link, left as it is)`}`)
    const stale = files.filter((file) => changes(file.outcome))
    if (check && stale.length > 0) {
      this.logToStderr(`Error: ${stale.length} file${stale.length === 1 ? ' is' : 's are'} out of date; run \`mesh render\`.`)
      process.exitCode = 1
    }
    return {check, files, ...(via ? {via} : {})}
  }
}

async function readCanonical(source: string): Promise<string> {
  const {readFile} = await import('node:fs/promises')
  if (source === '-') {
    const chunks: Buffer[] = []
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }
  try {
    return await readFile(source, 'utf8')
  } catch {
    throw invalid('usage_resources_unreadable', `Cannot read the resources text from "${source}".`, {field: 'resources'})
  }
}
