/**
 * The chat routes (spec: Endpoints `/chat/send`, `/chat/dispatch`; docs/
 * daemon-api.md, Chat): the operator's messages to a member, the architect's
 * dispatch (refused while the context tree is over budget, spec v14), and
 * reads of conversations and turns for `mesh ask` and `mesh team watch`
 * (portal token: they carry the conversation's text).
 */
import {conflict, invalid, notFound} from '../../lib/errors.js'
import {assertValid} from '../../lib/schemas.js'
import {isDispatchable} from '../../standard/tasks/index.js'
import type {DaemonContext} from '../context.js'
import {measureContextTree} from '../context-tree.js'
import {answer, type Route} from '../route-table.js'
import {findTaskForDaemon} from '../tasks/lookup.js'
import {COORDINATOR, CONV_PATTERN, newId} from './constants.js'
import {unknownConv, type Engine} from './engine.js'
import {locateAnchor} from './resolution/anchor.js'
import type {TurnAnchor} from './types.js'

interface SendBody {
  text: string
  member?: string
  conv?: string
  task?: string
  initiative?: string
}

export function convIdOf(raw: string | undefined): string {
  if (typeof raw === 'string' && CONV_PATTERN.test(raw)) return raw
  throw invalid('invalid_conv', `a conversation id is 1 to 80 of a-z, 0-9, ., _ and -, starting with a letter or digit; got ${JSON.stringify(String(raw).slice(0, 40))}`, {field: 'conv'})
}

export function chatRoutes(context: DaemonContext, engine: Engine): Route[] {
  /** A turn for the operator: the conv's member unless another is named (409 when it differs), refused while the conv is busy. */
  async function operatorTurn(body: SendBody, origin: 'send' | 'dispatch') {
    const conv = body.conv ?? newId('c-')
    const known = engine.conversation(conv)
    const member = body.member ?? known?.member ?? COORDINATOR
    if (known && engine.isLive(conv)) throw conflict('conv_busy', `Conversation ${conv} has a turn running; add this to its queue (POST /chat/conv/${conv}/queue) or wait for its final`)
    const given: TurnAnchor | undefined = body.task ? {task: body.task, ...(body.initiative ? {initiative: body.initiative} : {})} : undefined
    const anchor = (await locateAnchor(context, {anchor: given, text: body.text})) ?? given
    const started = await engine.submit({conv, member, text: body.text, author: 'operator', origin, ...(anchor ? {anchor} : {})})
    return answer({...started, member, ...(anchor ? {anchor} : {})}, 202)
  }

  return [
    {
      method: 'POST',
      path: '/chat/send',
      auth: 'portal',
      handle: async (request) => operatorTurn(assertValid<SendBody>('daemon-chat-send', await request.body()), 'send'),
    },
    {
      method: 'POST',
      path: '/chat/dispatch',
      auth: 'portal',
      async handle(request) {
        const body = assertValid<Omit<SendBody, 'text' | 'initiative'> & {text?: string}>('daemon-chat-dispatch', await request.body())
        if (!body.task && !body.text) throw invalid('invalid_body', 'a dispatch names a `task`, a `text`, or both', {field: 'task'})
        const member = body.member ?? COORDINATOR
        if (member === COORDINATOR) {
          // spec v14: the daemon refuses architect dispatch while the context tree is over budget.
          const tree = await measureContextTree(context)
          if (tree.over_budget) throw conflict('context_over_budget', `The context tree has ${tree.words} words, over its ${tree.budget_words}-word budget; trim .mesh/context/ before dispatching to the architect`)
        }
        let text = body.text ?? ''
        if (body.task) {
          const task = await findTaskForDaemon(context.root, body.task)
          const status = String(task.data.status ?? '')
          if (!isDispatchable(status)) throw conflict('task_not_dispatchable', `${task.id} is ${status}: only next, active, in_progress, doing and planned tasks are dispatched (spec v15)`)
          text = text || `Dispatch #${task.id}: ${String(task.data.title ?? '')}`
        }
        context.debug.log({lvl: 'info', tag: 'chat-dispatch', msg: `dispatch to ${member}${body.task ? ` for ${body.task}` : ''}`})
        return operatorTurn({text, member, conv: body.conv, task: body.task}, 'dispatch')
      },
    },
    {method: 'GET', path: '/chat/convs', auth: 'portal', handle: () => ({convs: engine.conversations()})},
    {
      method: 'GET',
      path: '/chat/conv/:conv',
      auth: 'portal',
      handle: ({params}) => engine.conversation(convIdOf(params.conv)) ?? Promise.reject(unknownConv(params.conv)),
    },
    {
      method: 'GET',
      path: '/chat/turns/:id',
      auth: 'portal',
      handle: ({params}) => engine.turn(params.id) ?? Promise.reject(notFound('turn_not_found', `No turn ${String(params.id).slice(0, 40)} (finished turns are kept for a while; the timeline keeps all)`)),
    },
    {
      // Issue 19, See and stop: answers once the final is out — within the kill grace (SIGTERM, SIGKILL 2 s later).
      method: 'POST',
      path: '/chat/turns/:id/cancel',
      auth: 'portal',
      async handle({params}) {
        const ended = await engine.cancel(String(params.id))
        context.debug.log({lvl: 'info', tag: 'chat', msg: `the operator cancelled turn ${ended.turn_id} of ${ended.profile ?? ended.member} in ${ended.conv}`, conv: ended.conv})
        return ended
      },
    },
  ]
}
