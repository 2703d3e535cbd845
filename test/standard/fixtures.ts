/**
 * Builds mesh project folders in a temp dir for tests: `makeRepo()` writes a
 * minimal repo that `mesh validate` passes with zero findings; tests then
 * break one thing with `write`/`remove` and look for the one finding.
 */
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {stringify} from 'yaml'
import {DENY_LIST, MARKERS} from '../../src/standard/constants.js'

export interface FixtureRepo {
  /** Absolute repo root. */
  root: string
  /** Writes a file (repo-relative path), creating folders. */
  write(path: string, text: string): FixtureRepo
  /** Reads a file back. */
  read(path: string): string
  remove(path: string): FixtureRepo
  /** Deletes the temp dir. */
  cleanup(): void
}

/** A markdown file with YAML frontmatter (dates stay plain `YYYY-MM-DD` scalars). */
export function frontmatter(data: Record<string, unknown>, body = ''): string {
  return `---\n${stringify(data, {lineWidth: 0}).trimEnd()}\n---\n${body}`
}

export const TODAY = '2026-01-05'

/** Frontmatter of a valid task in module `api`; override any field. */
export function taskData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {id: 'API1', title: 'First task', status: 'next', priority: 'medium', owner: 'architect', category: 'api', created: TODAY, updated: TODAY, ...overrides}
}

export const TASK_BODY = '\n## Scope\n\nWhat changes.\n\n## Done when\n\n- Tests pass.\n\n## Files\n\n- src/api.ts\n'
export const INITIATIVE_BODY = '\n## Why this exists\n\nTo ship.\n\n## Done when\n\nShipped.\n\n## Task plan\n\n- API1\n'
export const WORKFLOW_BODY = ['Goal', 'When to apply', 'Inputs', 'Preconditions', 'Steps', 'Verification', 'Rollback', 'Related'].map((title) => `\n## ${title}\n\nText.\n`).join('')

/** A task file text. */
export const taskFile = (overrides: Record<string, unknown> = {}, body = TASK_BODY) => frontmatter(taskData(overrides), body)

export const CLUSTER = {
  version: 1,
  id: 'demo',
  type: 'dev',
  name: 'Demo',
  transport: {endpoint: 'wss://hub.example.com/v1/clusters/demo'},
  modules: [
    {id: 'project', kind: 'area', name: 'Project'},
    {id: 'deploy', kind: 'area', parent: 'project'},
    {id: 'docs', kind: 'area', parent: 'project'},
    {id: 'design', kind: 'area', parent: 'project'},
    {id: 'general', kind: 'area', parent: 'project'},
    {id: 'api', kind: 'code', path: 'src/api', task_prefix: 'API'},
  ],
}

const context = (title: string) => frontmatter({title, updated: TODAY}, `\n${title} in a few words.\n`)

/** The files of a minimal valid project, by repo-relative path. */
export function minimalFiles(): Record<string, string> {
  return {
    'mesh.json': JSON.stringify({mesh_version: 1, hub: {url: 'https://hub.example.com', docs: 'https://hub.example.com/docs'}}, null, 2) + '\n',
    '.gitignore': `node_modules/\n${DENY_LIST.join('\n')}\n`,
    '.mesh/STANDARD_VERSION': '38\n',
    '.mesh/public/cluster.yaml': stringify(CLUSTER),
    '.mesh/public/README.md': '# Demo\n\nHow to join.\n',
    '.mesh/public/AGENT_INSTRUCTIONS.md': `${MARKERS.preambleBegin}\nRules.\n${MARKERS.preambleEnd}\n\n${MARKERS.operatorBegin}\nMine.\n${MARKERS.operatorEnd}\n`,
    '.mesh/public/RESOURCES.md': `# Resources\n\n${MARKERS.resourcesEnd}\n`,
    '.mesh/context/overview.md': context('Overview'),
    '.mesh/context/product.md': context('Product'),
    '.mesh/context/stack.md': context('Stack'),
    '.mesh/context/architecture.md': context('Architecture'),
    '.mesh/context/constraints.md': context('Constraints'),
    '.mesh/docs/INDEX.md': '# Docs\n\n## Architecture\n\n- [Overview](architecture/overview.md)\n  How the parts fit.\n',
    '.mesh/docs/governance.md': '# Governance\n\nSee the standard.\n',
    '.mesh/docs/architecture/overview.md': frontmatter({title: 'Architecture overview', category: 'architecture', updated: TODAY, owner: 'architect', status: 'stable'}, '\n# Overview\n\nParts.\n'),
    '.mesh/modules/api/README.md': '# api\n',
    '.mesh/modules/api/tasks/API1-first-task.md': taskFile(),
    '.mesh/modules/api/log/2025-12/API0-old-task.md': taskFile({id: 'API0', title: 'Old task', status: 'done', created: '2025-12-01', updated: '2025-12-02'}),
    '.mesh/roadmap/initiatives/launch.md': frontmatter({id: 'launch', title: 'Launch', status: 'active', owner: 'architect', created: TODAY, updated: TODAY, modules: ['api']}, INITIATIVE_BODY),
    '.mesh/team/architect.md': frontmatter({id: 'architect', title: 'Coordinating architect', client: 'claude', model: 'opus', context: [], exposure: 'internal'}, '\nYou coordinate.\n'),
    '.mesh/workflows/W1-release.md': frontmatter({id: 'W1', title: 'Release', scope: 'project', status: 'stable', priority: 'high', owner: 'architect', created: TODAY, updated: TODAY}, WORKFLOW_BODY),
  }
}

/** Writes a minimal valid repo (plus `extra` files) into a fresh temp dir. */
export function makeRepo(extra: Record<string, string> = {}, base: Record<string, string> = minimalFiles()): FixtureRepo {
  const root = mkdtempSync(join(tmpdir(), 'mesh-repo-'))
  const repo: FixtureRepo = {
    root,
    write(path, text) {
      mkdirSync(dirname(join(root, path)), {recursive: true})
      writeFileSync(join(root, path), text)
      return repo
    },
    read: (path) => readFileSync(join(root, path), 'utf8'),
    remove(path) {
      rmSync(join(root, path), {recursive: true, force: true})
      return repo
    },
    cleanup: () => rmSync(root, {recursive: true, force: true}),
  }
  for (const [path, text] of Object.entries({...base, ...extra})) repo.write(path, text)
  return repo
}
