/** The tasks area's route table (docs/daemon-api.md, Tasks). */
import type {Mutex} from '../../lib/mutex.js'
import {assertValid} from '../../lib/schemas.js'
import type {DaemonContext} from '../context.js'
import type {Route} from '../route-table.js'
import {assertTaskId} from './lookup.js'
import {OPERATOR, transitionTask} from './transition.js'

interface TransitionBody {
  status: string
  by?: string
}

export function taskRoutes(context: DaemonContext, mutex: Mutex): Route[] {
  return [
    {
      method: 'POST',
      path: '/tasks/:id/transition',
      auth: 'portal',
      async handle(request) {
        const id = assertTaskId(request.params.id)
        const body = assertValid<TransitionBody>('daemon-task-transition', await request.body())
        return transitionTask(context, mutex, {id, status: body.status, by: body.by ?? OPERATOR})
      },
    },
  ]
}
