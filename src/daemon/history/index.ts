/**
 * The history area (issue 22: what the IDE's Project view reads that no
 * other area served): the timeline by day and `mesh validate`'s report.
 * Routes only, no background work. docs/daemon-api.md, History.
 */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {historyRoutes} from './routes.js'

export {listTimelineDays, readTimelineDay, type TimelineDay, type TimelineDayEvents} from './read.js'

export const historyArea = (context: DaemonContext): DaemonArea => ({name: 'history', routes: historyRoutes(context)})
