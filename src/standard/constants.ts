/**
 * The numbers and names of the .mesh/ standard, named once.
 * spec: project standard; choices from DECISIONS (docs/standard.md marks mesh's own as **Choice**).
 */

/** The folder inside a repository (named once, in src/protocol: the daemon's clients need it too). */
export {MESH_DIR} from '../protocol/daemon.js'
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

/** spec: the exact shape of a chat mention of a roadmap item (one token). */
export const MENTION_TOKEN = /^#[A-Za-z][A-Za-z0-9_-]{1,31}$/
/** DECISIONS: workflow and protocol ids (one shared schema). */
export const WORKFLOW_ID = /^W\d+$/
export const PROTOCOL_ID = /^P\d+$/
/** spec: a calendar month folder of an archive or run-log tree. */
export const MONTH_FOLDER = /^\d{4}-(0[1-9]|1[0-2])$/
/** spec v14: a decision entry is `YYYY-MM-DD-<slug>.md`. */
export const DECISION_FILE = /^\d{4}-\d{2}-\d{2}-[a-z][a-z0-9-]{1,31}\.md$/

/** Files and folders of the standard, relative to `.mesh/`. */
export const STANDARD_PATHS = {
  cluster: 'public/cluster.yaml',
  links: 'public/links.yaml',
  instructions: 'public/AGENT_INSTRUCTIONS.md',
  resources: 'public/RESOURCES.md',
  standardVersion: 'STANDARD_VERSION',
  docs: 'docs',
  modules: 'modules',
  initiatives: 'roadmap/initiatives',
  context: 'context',
  team: 'team',
  workflows: 'workflows',
  protocols: 'protocols',
} as const

/** spec: doc categories (R1: the folder under docs/ equals the category). */
export const DOC_CATEGORIES = ['architecture', 'product', 'conventions', 'deploy', 'security', 'ops', 'modules', 'governance'] as const
/** spec Doc file: exempt from the doc frontmatter (R4). */
export const DOC_EXEMPT_FILES = ['INDEX.md', 'README.md', 'governance.md'] as const
/** DECISIONS R5: a block this many lines long, found in two docs, is a copy. */
export const DUPLICATE_BLOCK_LINES = 6

/** spec: creation bodies of tasks and initiatives; body sections of runbooks. */
export const TASK_SECTIONS = ['Scope', 'Done when', 'Files'] as const
export const INITIATIVE_SECTIONS = ['Why this exists', 'Done when', 'Task plan'] as const
export const WORKFLOW_SECTIONS = ['Goal', 'When to apply', 'Inputs', 'Preconditions', 'Steps', 'Verification', 'Rollback', 'Related'] as const

/** spec v14: the optional context file beside the required ones. */
export const CONTEXT_OPTIONAL_FILES = ['glossary.md'] as const

/** spec Commit conventions: Conventional Commit types. */
export const COMMIT_TYPES = ['feat', 'fix', 'docs', 'style', 'refactor', 'perf', 'test', 'chore', 'build', 'ci', 'revert'] as const

/** spec Queue (v16) and Limits: items per queue, bytes per item text. */
export const QUEUE_MAX_ITEMS = 50
export const QUEUE_ITEM_MAX_BYTES = 64 * 1024
