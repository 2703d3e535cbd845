/** The tasks area's route table (docs/daemon-api.md, Tasks). */
import type {Mutex} from '../../lib/mutex.js'
import {assertValid} from '../../lib/schemas.js'
import type {DaemonContext} from '../context.js'
import {answer, type Route} from '../route-table.js'
import {archiveTasks, createTaskForCaller} from './authoring.js'
import {readBoard} from './board.js'
import {DAY_MS, DEFAULT_ARCHIVE_DAYS} from './constants.js'
import {assertTaskId} from './lookup.js'
import {taskIndex} from './task-index.js'
import {OPERATOR, transitionTask} from './transition.js'

interface TransitionBody {
  status: string
  by?: string
}

interface CreateBody {
  module: string
  title: string
  slug?: string
  status?: string
  priority?: string
  owner?: string
  initiative?: string
  depends_on?: string[]
  tags?: string[]
  by?: string
}

interface ArchiveBody {
  older_than_days?: number
  by?: string
}


export function taskRoutes(context: DaemonContext, mutex: Mutex): Route[] {
  return [
    {
      method: 'GET',
      path: '/tasks',
      auth: 'none',
      // `?ids=API1,API3`: only these tasks (the board patches the cards an event touched).
      handle: (request) => readBoard(taskIndex(context), context.clock(), request.query.ids === undefined ? undefined : new Set(request.query.ids.split(',').map((id) => id.trim()))),
    },
    {
      method: 'POST',
      path: '/tasks',
      auth: 'portal',
      async handle(request) {
        const body = assertValid<CreateBody>('daemon-task-create', await request.body())
        const {depends_on: dependsOn, tags, by, ...rest} = body
        const created = await createTaskForCaller(context, {...rest, dependsOn, tags, by: by ?? OPERATOR})
        return answer(created, 201)
      },
    },
    {
      method: 'POST',
      path: '/tasks/archive',
      auth: 'portal',
      async handle(request) {
        const body = assertValid<ArchiveBody>('daemon-task-archive', await request.body())
        return archiveTasks(context, (body.older_than_days ?? DEFAULT_ARCHIVE_DAYS) * DAY_MS, body.by ?? OPERATOR)
      },
    },
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
