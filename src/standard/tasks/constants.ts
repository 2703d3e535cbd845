/**
 * Names and defaults of task authoring (`mesh task …`), named once.
 * spec: project standard "Task file"; DECISIONS "Task ids", "Task statuses"; docs/standard-authoring.md, `mesh task`.
 */

/** Folder of module folders, under `.mesh/`. */
export const MODULES_DIR = 'modules'
/** Active tasks of a module: `modules/<id>/tasks/<ID>-<slug>.md`. */
export const TASKS_DIR = 'tasks'
/** Archived tasks of a module: `modules/<id>/log/<YYYY-MM>/`. */
export const ARCHIVE_DIR = 'log'
/** spec: cluster.yaml lives here. */
export const CLUSTER_FILE = 'public/cluster.yaml'
/** Id reservations while a task is being created; under the deny-listed `.runtime/`. */
export const RESERVATIONS_DIR = '.runtime/task-ids'

/** A task_prefix on a cluster.yaml module (docs/standard-authoring.md, `mesh task` create). */
export const TASK_PREFIX = /^[A-Z][A-Z0-9]{0,3}$/
/** `<ID>-<slug>.md` where ID is strict; the slug is whatever follows the first hyphen. */
export const TASK_FILE_NAME = /^([A-Z][A-Z0-9]{0,3}\d+)-(.+)\.md$/
/** Year-month folders of the archive. */
export const ARCHIVE_MONTH = /^\d{4}-\d{2}$/

/** Defaults of `mesh task create` (documented in docs/standard-authoring.md). */
export const DEFAULT_TASK_STATUS = 'backlog'
export const DEFAULT_TASK_PRIORITY = 'medium'
/** The coordinating member of the base team (spec v38) owns what nobody claimed. */
export const DEFAULT_TASK_OWNER = 'architect'

/** Body sections of a new task (spec "Task file"). */
export const TASK_BODY_SECTIONS = ['Scope', 'Done when', 'Files'] as const

/**
 * DECISIONS: `move` writes canonical values or, where none fits, the extra word.
 * Each accepted word → the value written.
 */
export const STATUS_WRITTEN_AS: Readonly<Record<string, string>> = {
  backlog: 'backlog',
  next: 'next',
  active: 'active',
  blocked: 'blocked',
  done: 'done',
  draft: 'draft',
  planned: 'next',
  'in-progress': 'active',
  in_progress: 'active',
  doing: 'active',
  cancelled: 'cancelled',
  'pending-operator': 'pending-operator',
}

/** How many ids past the highest one `create` tries before giving up. */
export const MAX_ID_ATTEMPTS = 1000
