import {mkdir, readdir, readFile, stat} from 'node:fs/promises'
import {join} from 'node:path'
import {writeFileAtomic} from '../../lib/atomic-write.js'
import {invalid} from '../../lib/errors.js'
import {BOOTSTRAP_FILE, MESH_DIR, RENDER_TARGETS} from '../constants.js'
import {createFileExclusive} from '../../lib/exclusive-create.js'
import {parseMarkedFile, renderTarget} from '../render/markers.js'
import {readClusterInfo, type ClusterModule} from '../tasks/cluster-modules.js'
import {utcDate} from '../project/project-root.js'
import type {InitAnswers} from './answers.js'
import {CONTEXT_STEMS, SCAFFOLD_MODULES} from './constants.js'
import {mergeDenyList} from './gitignore.js'
import {contextFiles} from './templates/context.js'
import {docsIndex, governancePointer, moduleReadme} from './templates/docs.js'
import {agentInstructions, resourcesFile} from './templates/instructions.js'
import {bootstrapJson, clusterYaml, publicReadme, standardVersionFile} from './templates/project-files.js'
import {BASE_TEAM, teamCard} from './templates/team.js'

/** What init did with one file: made it, left the user's file alone, or added lines to it (.gitignore). */
export type FileOutcome = 'created' | 'kept' | 'updated'

export interface ScaffoldEntry {
  /** Path from the repository root, forward slashes. */
  path: string
  outcome: FileOutcome
  /** Something the user should know about this file. */
  note?: string
}

export interface ScaffoldResult {
  root: string
  answers: InitAnswers
  files: ScaffoldEntry[]
}

const m = (...parts: string[]) => [MESH_DIR, ...parts].join('/')

/**
 * Scaffolds the standard into `root` (spec folder layout, v13 modules, v14
 * context, v17 resources, v18 instructions, v38 team). Never overwrites: a
 * file that exists is reported `kept`; .gitignore only gets missing deny-list
 * lines appended. Running it twice changes nothing the second time.
 */
export async function scaffoldProject(root: string, answers: InitAnswers, options: {now?: Date} = {}): Promise<ScaffoldResult> {
  const today = utcDate(options.now ?? new Date())
  const files: ScaffoldEntry[] = []
  const existing = await stat(root).catch(() => undefined)
  if (existing && !existing.isDirectory()) throw invalid('usage_dir_invalid', `${root} is a file, not a folder; nothing was written.`, {field: 'dir'})
  await mkdir(root, {recursive: true})
  const place = async (path: string, content: string) => {
    const created = await createFileExclusive(join(root, path), content)
    files.push({path, outcome: created ? 'created' : 'kept'})
  }

  await place(BOOTSTRAP_FILE, bootstrapJson(answers))
  files.push(await updateGitignore(root))
  await place(m('STANDARD_VERSION'), standardVersionFile())
  await place(m('public', 'cluster.yaml'), clusterYaml(answers))
  await place(m('public', 'README.md'), publicReadme(answers))
  await place(m('public', 'AGENT_INSTRUCTIONS.md'), agentInstructions(answers))
  await place(m('public', 'RESOURCES.md'), resourcesFile(answers))
  await place(m('docs', 'INDEX.md'), docsIndex())
  await place(m('docs', 'governance.md'), governancePointer(answers))
  const context = contextFiles(answers, today)
  for (const stem of CONTEXT_STEMS) await place(m('context', `${stem}.md`), context[stem])
  for (const member of BASE_TEAM) await place(m('team', `${member.id}.md`), teamCard(member, answers))

  for (const module of await projectModules(root)) {
    await place(m('modules', module.id, 'README.md'), moduleReadme(module))
    await keepFolder(root, m('modules', module.id, 'tasks'), files)
  }
  await keepFolder(root, m('roadmap', 'initiatives'), files)
  files.push(...(await scaffoldTargets(root)))
  return {root, answers, files}
}

/** The modules of cluster.yaml as it now is (the user's, when kept); the seeded ones if it cannot be read. */
async function projectModules(root: string): Promise<ClusterModule[]> {
  try {
    const {modules} = await readClusterInfo(root)
    if (modules.length > 0) return modules.filter((module) => /^[a-z0-9-]{2,40}$/.test(module.id))
  } catch {
    // fall through to the seeded modules
  }
  return SCAFFOLD_MODULES.map((module) => ({id: module.id, name: module.name, description: module.description}))
}

/** Makes a folder git can hold: a `.gitkeep` while the folder has no files. */
async function keepFolder(root: string, path: string, files: ScaffoldEntry[]): Promise<void> {
  const entries = await readdir(join(root, path)).catch(() => [] as string[])
  if (entries.some((name) => name !== '.gitkeep')) return
  await mkdir(join(root, path), {recursive: true})
  const created = await createFileExclusive(join(root, path, '.gitkeep'), '')
  files.push({path: `${path}/.gitkeep`, outcome: created ? 'created' : 'kept'})
}

async function updateGitignore(root: string): Promise<ScaffoldEntry> {
  const path = join(root, '.gitignore')
  const existing = await stat(path).catch(() => undefined)
  if (existing && !existing.isFile()) {
    return {path: '.gitignore', outcome: 'kept', note: 'not a file: add the deny-list lines yourself (`mesh validate` lists them)'}
  }
  const before = await readFile(path, 'utf8').catch(() => undefined)
  const {text, added} = mergeDenyList(before)
  if (added.length === 0) return {path: '.gitignore', outcome: 'kept'}
  await writeFileAtomic(path, text)
  return {path: '.gitignore', outcome: before === undefined ? 'created' : 'updated', note: `added ${added.length} deny-list entr${added.length === 1 ? 'y' : 'ies'}`}
}

/** New CLAUDE.md / AGENTS.md / GEMINI.md rendered from the source; existing ones are kept (and flagged when they lack markers). */
async function scaffoldTargets(root: string): Promise<ScaffoldEntry[]> {
  const sourceText = await readFile(join(root, m('public', 'AGENT_INSTRUCTIONS.md')), 'utf8')
  let source: ReturnType<typeof parseMarkedFile> | undefined
  let sourceProblem: string | undefined
  try {
    source = parseMarkedFile(sourceText, m('public', 'AGENT_INSTRUCTIONS.md'))
  } catch (error) {
    sourceProblem = (error as Error).message
  }
  const entries: ScaffoldEntry[] = []
  for (const target of RENDER_TARGETS) {
    const existing = await readFile(join(root, target), 'utf8').catch(() => undefined)
    if (existing !== undefined) {
      let note: string | undefined
      try {
        parseMarkedFile(existing, target)
      } catch {
        note = 'has no valid mesh markers; `mesh render` will refuse it until its own text sits between the operator markers'
      }
      entries.push({path: target, outcome: 'kept', ...(note ? {note} : {})})
      continue
    }
    if (!source) {
      entries.push({path: target, outcome: 'kept', note: `not created: ${sourceProblem}`})
      continue
    }
    const created = await createFileExclusive(join(root, target), renderTarget(source, source.operator))
    entries.push({path: target, outcome: created ? 'created' : 'kept'})
  }
  return entries
}
