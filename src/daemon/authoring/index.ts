/**
 * The authoring area: the writes of the CLI's authoring commands made by the
 * running daemon (initiatives, the generated roadmap state, standard
 * migrations, RESOURCES.md), so that while it runs it is the one writer of
 * `.mesh/` (issue 20; src/cli/project-writes.ts makes the switch). Tasks have
 * their own area (src/daemon/tasks/).
 */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {authoringRoutes} from './routes.js'

export {INITIATIVE_CREATED_EVENT, INITIATIVE_REASON, MIGRATE_REASON, RESOURCES_REASON} from './constants.js'

export function authoringArea(context: DaemonContext): DaemonArea {
  return {name: 'authoring', routes: authoringRoutes(context)}
}
