/** The authoring area's names (docs/daemon-api.md, Authoring). */

/** Project-writer reasons (snapshot index, git commit subjects). */
export const INITIATIVE_REASON = 'initiative.create'
export const MIGRATE_REASON = 'standard.migrate'
/** RESOURCES.md: announced by the file watcher (watch ECHOED_REASONS), as a hand edit would be. */
export const RESOURCES_REASON = 'render.resources'

export const INITIATIVE_CREATED_EVENT = 'initiative.created'
