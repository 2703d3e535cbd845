/** The workflows and protocols areas of the daemon: read-only views of `.mesh/workflows/` and `.mesh/protocols/`. */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {PROTOCOLS, WORKFLOWS} from './kinds.js'
import {runbookRoutes} from './routes.js'

export const workflowsArea = (context: DaemonContext): DaemonArea => ({name: 'workflows', routes: runbookRoutes(context, WORKFLOWS)})
export const protocolsArea = (context: DaemonContext): DaemonArea => ({name: 'protocols', routes: runbookRoutes(context, PROTOCOLS)})
