/**
 * The links registry's "same commit" rule (spec: Links registry — "Every
 * commit that changes where a module runs, deploys, its branch or version
 * updates its entry in the same commit"), checked on a commit's files
 * (`mesh validate --commits`, rule `commit-links`). What counts, so that it
 * can be checked from the commit alone (docs/standard.md, `--commits`):
 *
 * - **version**: the `version` of the module's own `package.json` (in the
 *   module's `path` of cluster.yaml) differs from the parent commit's;
 * - **where it deploys**: a provider's deploy config in the module's folder or
 *   below it (`fly.toml`, `wrangler.toml`, `wrangler.json`, `wrangler.jsonc`,
 *   `vercel.json`, `render.yaml`), or a config file (`.toml`, `.yaml`, `.yml`,
 *   `.json`, `.jsonc`) that the module's links.yaml `prod.deploy_command`
 *   names, is changed, added or removed.
 *
 * Such a commit must change that module's entry in `.mesh/public/links.yaml`
 * (an entry added counts). The branch is not a file a commit changes, so it is
 * not checked. A project without links.yaml (before and after the commit)
 * does not use the registry: nothing is checked. Files in no module's `path`
 * are not checked.
 */
import {posix} from 'node:path'
import type {SimpleGit} from 'simple-git'
import {parse} from 'yaml'
import {MESH_DIR} from '../constants.js'
import {ruleInfo} from './rules.js'
import type {Finding} from './types.js'

const LINKS_FILE = `${MESH_DIR}/public/links.yaml`
const CLUSTER_FILE = `${MESH_DIR}/public/cluster.yaml`
/** git's empty tree: the "parent" of a root commit. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'
/** Deploy configs of the providers links.yaml names (spec: `prod.provider`). */
export const DEPLOY_CONFIG_FILES = ['fly.toml', 'wrangler.toml', 'wrangler.json', 'wrangler.jsonc', 'vercel.json', 'render.yaml'] as const
const CONFIG_EXTENSION = /\.(toml|ya?ml|jsonc?)$/

interface ModulePath {
  id: string
  /** Normalised: no `./`, no trailing `/`; '' for the repository root. */
  path: string
}

type Fields = Record<string, unknown>
const object = (value: unknown): Fields => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {})
const normalise = (path: string) => {
  const clean = posix.normalize(path.replace(/\\/g, '/')).replace(/^\.\//, '').replace(/\/+$/, '')
  return clean === '.' ? '' : clean
}
const inside = (file: string, folder: string) => folder === '' || file === folder || file.startsWith(`${folder}/`)

/** A file's text at a revision, or undefined when it is not there. */
async function show(git: SimpleGit, rev: string, path: string): Promise<string | undefined> {
  if (rev === EMPTY_TREE) return undefined
  try {
    return await git.show([`${rev}:${path}`])
  } catch {
    return undefined
  }
}

const parseYaml = (text: string | undefined): unknown => {
  if (text === undefined) return undefined
  try {
    return parse(text)
  } catch {
    return undefined
  }
}

/** The modules of cluster.yaml that have a path, longest path first (the most specific one owns a file). */
function modulePaths(cluster: unknown): ModulePath[] {
  const modules = Array.isArray(object(cluster).modules) ? (object(cluster).modules as unknown[]) : []
  return modules
    .map(object)
    .filter((module) => typeof module.id === 'string' && typeof module.path === 'string')
    .map((module) => ({id: module.id as string, path: normalise(module.path as string)}))
    .sort((a, b) => b.path.length - a.path.length)
}

/** Each module's links.yaml entry (as JSON text, for comparison), by id. */
function linkEntries(links: unknown): Map<string, string> {
  const modules = Array.isArray(object(links).modules) ? (object(links).modules as unknown[]) : []
  return new Map(modules.map(object).filter((entry) => typeof entry.id === 'string').map((entry) => [entry.id as string, JSON.stringify(entry)]))
}

/** The config files a deploy command names: path-like words with a config extension (`--config=api/fly.toml` too). */
function configFilesOf(command: unknown, modulePath: string): string[] {
  if (typeof command !== 'string') return []
  const words = command.split(/\s+/).flatMap((word) => word.split('=')).map((word) => word.replace(/^['"]|['"]$/g, ''))
  return words.filter((word) => CONFIG_EXTENSION.test(word) && !word.startsWith('-')).flatMap((word) => [normalise(word), normalise(posix.join(modulePath, word))])
}

/** `version` of a package.json text; undefined when there is none or it does not parse. */
function packageVersion(text: string | undefined): string | undefined {
  if (text === undefined) return undefined
  try {
    const version = object(JSON.parse(text)).version
    return typeof version === 'string' ? version : undefined
  } catch {
    return undefined
  }
}

/** What a change to `file` means for the module whose folder holds it, or null when it is not one the rule counts. */
async function changeInFolder(git: SimpleGit, sha: string, parent: string, file: string, module: ModulePath): Promise<string | null> {
  const name = posix.basename(file)
  if (name === 'package.json' && normalise(posix.dirname(file)) === module.path) {
    const [before, after] = [packageVersion(await show(git, parent, file)), packageVersion(await show(git, sha, file))]
    return before === after ? null : `its version (${file}: ${before ?? 'none'} → ${after ?? 'none'})`
  }
  return (DEPLOY_CONFIG_FILES as readonly string[]).includes(name) ? `where it deploys (${file})` : null
}

/**
 * The `commit-links` findings of one commit: one per module whose version or
 * deploy config the commit changes while its links.yaml entry stays as it was.
 */
export async function checkCommitLinks(git: SimpleGit, sha: string): Promise<Finding[]> {
  const parent = await git.raw(['rev-parse', '--verify', '--quiet', `${sha}^`]).then((text) => text.trim() || EMPTY_TREE, () => EMPTY_TREE)
  const [linksBefore, linksAfter] = [parseYaml(await show(git, parent, LINKS_FILE)), parseYaml(await show(git, sha, LINKS_FILE))]
  if (linksBefore === undefined && linksAfter === undefined) return []
  const modules = modulePaths(parseYaml(await show(git, sha, CLUSTER_FILE)))
  if (modules.length === 0) return []
  const [entriesBefore, entriesAfter] = [linkEntries(linksBefore), linkEntries(linksAfter)]
  const files = (await git.raw(['diff-tree', '--no-commit-id', '--name-only', '-r', '--root', sha])).split('\n').filter((line) => line.trim() !== '')

  // The config files each module's deploy command names (before or after the commit), wherever they are.
  const named = new Map<string, Set<string>>()
  for (const module of modules) {
    for (const entry of [entriesBefore.get(module.id), entriesAfter.get(module.id)]) {
      for (const file of entry ? configFilesOf(object(object(JSON.parse(entry)).prod).deploy_command, module.path) : []) named.set(file, (named.get(file) ?? new Set()).add(module.id))
    }
  }
  const changes = new Map<string, string[]>()
  const add = (id: string, what: string) => changes.set(id, [...new Set([...(changes.get(id) ?? []), what])])
  for (const file of files) {
    for (const id of named.get(file) ?? []) add(id, `where it deploys (${file}, named by its prod.deploy_command)`)
    const module = modules.find((candidate) => inside(file, candidate.path))
    const change = module && !named.get(file)?.has(module.id) ? await changeInFolder(git, sha, parent, file, module) : null
    if (module && change) add(module.id, change)
  }

  const findings: Finding[] = []
  for (const [id, what] of changes) {
    if (entriesBefore.get(id) !== entriesAfter.get(id)) continue
    const entry = entriesAfter.has(id) ? `its entry in ${LINKS_FILE}` : `an entry for it in ${LINKS_FILE} (there is none)`
    findings.push({
      file: `commit:${sha.slice(0, 12)}`,
      line: 1,
      column: 1,
      rule: 'commit-links',
      severity: ruleInfo('commit-links').severity,
      message: `changes ${what.join(' and ')} of module ${id} without updating ${entry} in the same commit`,
    })
  }
  return findings
}
