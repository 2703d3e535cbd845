/**
 * Names and defaults of initiative authoring (`mesh initiative …`).
 * spec: project standard folder layout; the initiative's shape: docs/standard-authoring.md, `mesh initiative create|list`.
 */

/** `roadmap/initiatives/<id>.md` under `.mesh/`. */
export const INITIATIVES_DIR = 'roadmap/initiatives'
export const INITIATIVE_STATUSES = ['draft', 'active', 'done', 'cancelled'] as const
export type InitiativeStatus = (typeof INITIATIVE_STATUSES)[number]
/** A new initiative is being worked on: turns anchor to it at once. */
export const DEFAULT_INITIATIVE_STATUS: InitiativeStatus = 'active'
export const DEFAULT_INITIATIVE_OWNER = 'architect'
/** Body sections of a new initiative (spec "Task file", creation bodies). */
export const INITIATIVE_BODY_SECTIONS = ['Why this exists', 'Done when', 'Task plan'] as const
/** The frontmatter keys an initiative may carry, in the order `create` writes them. */
export const INITIATIVE_KEYS = ['id', 'title', 'status', 'owner', 'created', 'updated', 'modules', 'tags', 'parent_initiative'] as const
