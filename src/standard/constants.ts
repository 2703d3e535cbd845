/**
 * The numbers and names of the .mesh/ standard, named once.
 * spec: project-standard-and-daemon.md; choices from DECISIONS.md.
 */

/** The folder inside a repository. */
export const MESH_DIR = '.mesh'
/** spec+DECISIONS: the bootstrap file at the repo root. */
export const BOOTSTRAP_FILE = 'mesh.json'
/** DECISIONS: STANDARD_VERSION of a new scaffold. */
export const CURRENT_STANDARD_VERSION = 38

export const TASK_STATUSES = ['backlog', 'next', 'active', 'blocked', 'done', 'draft'] as const
/** DECISIONS: accepted with a warning. */
export const TASK_STATUS_ALIASES = ['planned', 'in-progress', 'in_progress', 'doing', 'cancelled', 'pending-operator'] as const
/** spec v15. */
export const DISPATCHABLE_STATUSES = ['next', 'active', 'in_progress', 'doing', 'planned'] as const
export const TASK_PRIORITIES = ['low', 'medium', 'high', 'critical'] as const

/** DECISIONS: ids `create` writes. */
export const TASK_ID_STRICT = /^[A-Z][A-Z0-9]{0,3}\d+$/
/** DECISIONS: ids `validate` accepts (with a warning when not strict). */
export const TASK_ID_LOOSE = /^[A-Za-z][A-Za-z0-9_-]{1,31}$/
export const SLUG = /^[a-z][a-z0-9-]{1,31}$/
export const MODULE_ID = /^[a-z0-9-]{2,40}$/
export const MENTION = /#([A-Za-z][A-Za-z0-9_-]{1,31})\b/g

/** spec v13: the project area and its four minimum children. */
export const PROJECT_MODULE = 'project'
export const PROJECT_CHILDREN = ['deploy', 'docs', 'design', 'general'] as const

/** spec v14 + DECISIONS: context budgets in words. */
export const CONTEXT_REQUIRED_FILES = ['overview.md', 'product.md', 'stack.md', 'architecture.md', 'constraints.md'] as const
export const CONTEXT_WARN_WORDS = 200
export const CONTEXT_ERROR_WORDS = 250
export const CONTEXT_ENTRY_MAX_WORDS = 100
export const CONTEXT_TOTAL_MAX_WORDS = 3000

/** spec governance R2. */
export const DOC_MAX_LINES = 200

/** spec deny-list + DECISIONS additions: paths that must never be committed. */
export const DENY_LIST = [
  '.mesh/.runtime/',
  '.mesh/credentials/',
  '.mesh/agents/',
  '.mesh/timeline/',
  '.mesh/log/',
  '.mesh/queues/',
  '.mesh/uploads/',
  '.mesh/snapshots/',
  '.mesh/state.json',
  '.mesh/roadmap/state.json',
  '.mesh/roadmap/state.js',
  '.mesh/scripts/',
  '.mesh/workflows/log/',
  '.mesh/architect/',
] as const

/** DECISIONS: markers of AGENT_INSTRUCTIONS.md, its targets, and RESOURCES.md. */
export const MARKERS = {
  preambleBegin: '<!-- mesh:preamble:begin -->',
  preambleEnd: '<!-- mesh:preamble:end -->',
  operatorBegin: '<!-- mesh:operator:begin -->',
  operatorEnd: '<!-- mesh:operator:end -->',
  resourcesEnd: '<!-- mesh:resources:end -->',
} as const
/** spec v18: the three rendered targets at the repo root. */
export const RENDER_TARGETS = ['CLAUDE.md', 'AGENTS.md', 'GEMINI.md'] as const

/** spec v36: authored team-card fields (+ optional effort per DECISIONS) and the retired ones. */
export const TEAM_FIELDS = ['id', 'title', 'client', 'model', 'context', 'exposure', 'effort'] as const
export const TEAM_RETIRED_FIELDS = ['name', 'kind', 'required', 'agent_type', 'pinned_order', 'owns', 'never', 'delegates_to', 'refs', 'credentials_hint'] as const
