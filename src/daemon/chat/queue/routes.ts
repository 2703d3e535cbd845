/**
 * The queue routes (spec: Endpoints — `/chat/conv/<conv>/queue`, `…/edit`,
 * `/move`, `/promote`, DELETE `…/queue/<id>`; Authentication — queue routes
 * need the portal token). docs/daemon-api.md, Queue.
 */
import {conflict, invalid, isMeshError} from '../../../lib/errors.js'
import {assertValid} from '../../../lib/schemas.js'
import type {DaemonContext} from '../../context.js'
import {answer, type Route, type RouteRequest} from '../../route-table.js'
import type {ChatEngine} from '../types.js'
import {QUEUE_DEBUG_TAG} from './constants.js'
import type {QueueList} from '../../../protocol/queue.js'
import {convOf} from './queue-file.js'
import {sendItem} from './send.js'
import {queueStoreOf, type Expect} from './store.js'

/** `?version=` of DELETE (a DELETE carries no body in many clients). */
function versionQuery(request: RouteRequest): Expect {
  const raw = request.query.version
  if (raw === undefined) return {}
  if (!/^\d{1,15}$/.test(raw)) throw invalid('invalid_query', 'version is a whole number', {field: 'version'})
  return {version: Number(raw)}
}

export interface QueueRouteOptions {
  /** A queue was resumed: send its head if its conv is idle (the dispatcher's kick). */
  onResumed?(conv: string): void
}

export function queueRoutes(context: DaemonContext, engine: ChatEngine, options: QueueRouteOptions = {}): Route[] {
  const store = queueStoreOf(context)
  const base = '/chat/conv/:conv/queue'
  return [
    {method: 'GET', path: base, auth: 'portal', handle: ({params}) => store.read(convOf(params.conv))},
    // Every queue holding items, idle convs' too (mesh team watch): a conv's queue outlives its turns and the daemon.
    {method: 'GET', path: '/chat/queues', auth: 'portal', handle: async (): Promise<QueueList> => ({queues: await store.list()})},
    {
      method: 'POST',
      path: base,
      auth: 'portal',
      async handle(request) {
        const conv = convOf(request.params.conv)
        const body = assertValid<{text: string; member?: string; version?: number}>('daemon-queue-add', await request.body())
        // A conv the engine runs already has its member: queued items go to it, never to another.
        const running = engine.conversation(conv)?.member
        if (body.member !== undefined && running !== undefined && body.member !== running) {
          throw conflict('member_mismatch', `The conv ${conv} runs with ${running}, not ${body.member}`, {field: 'member'})
        }
        return answer(await store.add(conv, body), 201)
      },
    },
    {
      method: 'POST',
      path: `${base}/:id/edit`,
      auth: 'portal',
      async handle(request) {
        const body = assertValid<{text: string; version?: number}>('daemon-queue-edit', await request.body())
        return store.edit(convOf(request.params.conv), request.params.id, body)
      },
    },
    {
      method: 'POST',
      path: `${base}/:id/move`,
      auth: 'portal',
      async handle(request) {
        const body = assertValid<{position: number; version?: number}>('daemon-queue-move', await request.body())
        return store.move(convOf(request.params.conv), request.params.id, body)
      },
    },
    {
      method: 'POST',
      path: `${base}/:id/promote`,
      auth: 'portal',
      async handle(request) {
        const conv = convOf(request.params.conv)
        const body = assertValid<Expect>('daemon-queue-promote', await request.body())
        // A failed item may be promoted again: that is how the operator retries it.
        const claimed = await store.claim(conv, {id: request.params.id, from: ['queued', 'failed'], version: body.version})
        if (!claimed) throw new Error('claim by id answered no item')
        // At capacity is for now: the item keeps its place and the caller retries; any other refusal fails it.
        return sendItem(store, engine, conv, claimed, (error) => (isMeshError(error) && error.kind === 'rate_limited' ? 'queued' : 'failed'))
      },
    },
    {
      method: 'POST',
      path: `${base}/resume`,
      auth: 'portal',
      async handle(request) {
        const conv = convOf(request.params.conv)
        const body = assertValid<Expect>('daemon-queue-resume', await request.body())
        const queue = await store.resume(conv, body)
        context.debug.log({lvl: 'info', tag: QUEUE_DEBUG_TAG.pause, conv, msg: `the queue of ${conv} was resumed by the operator`})
        options.onResumed?.(conv)
        return queue
      },
    },
    {
      method: 'DELETE',
      path: `${base}/:id`,
      auth: 'portal',
      handle: (request) => store.remove(convOf(request.params.conv), request.params.id, versionQuery(request)),
    },
  ]
}
