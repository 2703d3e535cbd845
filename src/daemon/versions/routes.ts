/** The versions area's route table (docs/daemon-api.md, Versions). */
import {assertValid} from '../../lib/schemas.js'
import type {DaemonContext} from '../context.js'
import type {Route} from '../route-table.js'
import {issueVersion, type VersionRequest} from './issue.js'

export function versionRoutes(context: DaemonContext): Route[] {
  return [
    {
      method: 'POST',
      path: '/version/next',
      auth: 'portal',
      async handle(request) {
        const body = assertValid<VersionRequest>('daemon-version-next', await request.body())
        const issued = await issueVersion(context, body)
        // DECISIONS: the reply is {version, task_id}.
        return {version: issued.version, task_id: issued.task_id}
      },
    },
  ]
}
