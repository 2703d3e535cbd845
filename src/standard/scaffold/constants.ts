/** Defaults and names of `mesh init` (documented in docs/standard-authoring.md). */

/** The hub a new project points at unless told otherwise (`--hub`). */
export const DEFAULT_HUB_URL = 'https://mesh.dev'
/** spec cluster.yaml `type`. */
export const PROJECT_TYPES = ['dev', 'comms', 'service', 'mixed'] as const
export type ProjectType = (typeof PROJECT_TYPES)[number]
export const DEFAULT_PROJECT_TYPE: ProjectType = 'dev'
/** spec cluster.yaml `id`. */
export const CLUSTER_ID = /^[a-z0-9-]{2,40}$/
/** spec bootstrap `cluster.name`: 1 to 80 characters; we hold the project name to the same bound. */
export const MAX_NAME_LENGTH = 80
/** spec cluster.yaml `architect.port`. */
export const DAEMON_PORT = 5570
/** The header above the deny-list lines init appends to .gitignore. */
export const GITIGNORE_HEADER = '# mesh: local state, never committed (.mesh deny-list)'

/**
 * spec v13: the `project` area and its four children, with the kind each
 * gets and the explicit task prefix written into cluster.yaml.
 */
export const SCAFFOLD_MODULES = [
  {id: 'project', kind: 'area', name: 'Project', prefix: 'PRJ', description: 'The project as a whole: goals, roadmap and work that belongs to no single part.'},
  {id: 'deploy', kind: 'area', name: 'Deploy', prefix: 'DEP', parent: 'project', description: 'Environments, releases, hosting and the links registry.'},
  {id: 'docs', kind: 'docs', name: 'Docs', prefix: 'DOC', parent: 'project', description: 'Cross-cutting documentation under .mesh/docs/.'},
  {id: 'design', kind: 'spec', name: 'Design', prefix: 'DES', parent: 'project', description: 'Product and interface design, specs and decisions before code.'},
  {id: 'general', kind: 'area', name: 'General', prefix: 'GEN', parent: 'project', description: 'Everything that fits nowhere else yet.'},
] as const

/** spec v14: the five required context files, by stem. */
export const CONTEXT_STEMS = ['overview', 'product', 'stack', 'architecture', 'constraints'] as const
