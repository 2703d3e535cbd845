/**
 * Delegation's routes (docs/daemon-api.md, Delegation): the operator (or a
 * tool acting for a conversation) hands a brief to a member, and `mesh team
 * watch` reads the ledger. Both need the portal token: briefs are the team's
 * work in progress.
 */
import {assertValid} from '../../../lib/schemas.js'
import type {DaemonContext} from '../../context.js'
import {answer, type Route} from '../../route-table.js'
import type {ChatEngine} from '../types.js'
import {delegate} from './delegate.js'
import type {Ledger} from './ledger.js'

export interface DelegateBody {
  member: string
  brief: string
  from_conv?: string
  task?: string
  initiative?: string
}

export function delegationRoutes(context: DaemonContext, engine: ChatEngine, ledger: Ledger): Route[] {
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
  ]
}
