/**
 * Delegation's routes (docs/daemon-api.md, Delegation): the operator (or a
 * tool acting for a conversation) hands a brief to a member, `mesh team
 * watch` and `mesh team requests` read the ledger, and the operator cancels
 * an open request (issue 19), which frees its fan-out place and wakes its
 * requester. All need the portal token: briefs are the team's work in progress.
 */
import {conflict, notFound} from '../../../lib/errors.js'
import {assertValid} from '../../../lib/schemas.js'
import type {DaemonContext} from '../../context.js'
import {answer, type Route} from '../../route-table.js'
import type {ChatEngine} from '../types.js'
import type {Closing} from './closing.js'
import {REQUEST_ID} from './constants.js'
import {delegate} from './delegate.js'
import type {Ledger} from './ledger.js'

export interface DelegateBody {
  member: string
  brief: string
  from_conv?: string
  task?: string
  initiative?: string
}

export function delegationRoutes(context: DaemonContext, engine: ChatEngine, ledger: Ledger, closing: Closing): Route[] {
  return [
    {
      method: 'POST',
      path: '/chat/delegate',
      auth: 'portal',
      async handle(request) {
        const body = assertValid<DelegateBody>('daemon-chat-delegate', await request.body())
        return answer(await delegate(context, engine, ledger, body), 202)
      },
    },
    {method: 'GET', path: '/chat/delegations', auth: 'portal', handle: () => ledger.snapshot()},
    {
      method: 'DELETE',
      path: '/chat/requests/:request_id',
      auth: 'portal',
      async handle(request) {
        const id = String(request.params.request_id)
        const row = REQUEST_ID.test(id) ? ledger.row(id) : null
        if (!row) throw notFound('request_not_found', `No delegation request ${id.slice(0, 40)} (the ledger keeps open ones and the latest 100 closed)`)
        if (row.status !== 'open') throw conflict('request_closed', `${id} is already closed (${row.outcome ?? 'closed'})`)
        // The member's turn already under way goes on (POST /chat/turns/<id>/cancel stops it); its report will name a closed request.
        const closed = ledger.close(row.conv, [id], 'cancelled', {reason: 'cancelled by the operator'})
        context.debug.log({lvl: 'info', tag: 'delegation', msg: `the operator cancelled ${id} (${row.requester.member} → ${row.member})`, conv: row.conv})
        await closing.closed(closed)
        return closed[0]
      },
    },
  ]
}
