/**
 * Delegation (spec: Delegation v33/v34; docs/daemon.md, Delegation): the
 * ledger, saved under `.mesh/.runtime/chat/`, the final hook that reads
 * briefs and reports, the coordinating check the queue relies on, and the
 * routes. The chat area calls startDelegation once its engine exists.
 */
import type {DaemonContext} from '../../context.js'
import type {Route} from '../../route-table.js'
import {newId} from '../constants.js'
import type {ChatEngine} from '../types.js'
import {LEDGER_FILE, REQUEST_ID_PREFIX} from './constants.js'
import {createClosing} from './closing.js'
import {delegationHook} from './hook.js'
import {ledgerFile} from './ledger-file.js'
import {createLedger, type Ledger} from './ledger.js'
import {recoverOpenRequests} from './recovery.js'
import {delegationRoutes} from './routes.js'

export interface Delegation {
  routes: Route[]
  ledger: Ledger
  /** At start, once the engine runs: re-sends (once) or closes the requests a stopped daemon left open (issue 19). */
  recover(): Promise<{resent: number; closed: number}>
  /** Resolves once the ledger's newest state is on disk (call on close). */
  flush(): Promise<void>
}

export interface DelegationOptions {
  /** Default: the daemon's chat limits (`mesh serve` flags; DECISIONS: Delegation — 4 and 5). */
  maxDepth?: number
  maxFanOut?: number
}

/** Builds the ledger from its file, hooks it into the engine and answers the routes; synchronous so the chat area can list the routes when it is built. */
export function startDelegation(context: DaemonContext, engine: ChatEngine, options: DelegationOptions = {}): Delegation {
  const file = ledgerFile(context, context.meshPath(), LEDGER_FILE.join('/'))
  const ledger = createLedger({
    maxDepth: options.maxDepth ?? context.chatLimits.delegationDepth,
    maxFanOut: options.maxFanOut ?? context.chatLimits.delegationFanOut,
    clock: context.clock,
    newRequestId: () => newId(REQUEST_ID_PREFIX),
    state: file.load(),
    persist: (state) => file.persist(state),
  })
  const closing = createClosing(context, engine, ledger)
  engine.addCoordinatingCheck((conv) => ledger.isCoordinating(conv) || closing.isWaking(conv))
  engine.onFinal(delegationHook(context, engine, ledger, closing))
  return {routes: delegationRoutes(context, engine, ledger, closing), ledger, recover: () => recoverOpenRequests(context, engine, ledger, closing), flush: () => file.flush()}
}

export {delegate, type DelegateAnswer, type DelegateRequest} from './delegate.js'
export {createLedger, type Ledger, type LedgerRow, type LedgerSnapshot} from './ledger.js'
