/**
 * The chat area of the daemon (spec: chat, ask, queue and delegate routes;
 * docs/daemon.md, Chat): one engine runs every member's turns; task
 * resolution, ask answers and delegation hang on its finals; the queue on
 * its idle conversations.
 */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {agentReportsHook} from './agent-reports.js'
import {createAsks} from './ask.js'
import {loadClients} from './clients/sources.js'
import {CLIENT_WARNINGS_CACHE_MS} from './constants.js'
import {startDelegation} from './delegation/index.js'
import {createChatEngine, type Engine} from './engine.js'
import type {Ledger} from './delegation/ledger.js'
import {startQueueDispatch, type QueueDispatch} from './queue/dispatcher.js'
import {queuePauseHook} from './queue/pause-hook.js'
import {queueRoutes} from './queue/routes.js'
import {resolutionHook} from './resolution/index.js'
import {startTaskEvents} from './task-events.js'
import {chatRoutes} from './routes.js'
import {createBudget, type Budget} from './usage/budget.js'
import {usageRoutes} from './usage/routes.js'
import {threadRoutes} from './thread/routes.js'

/** What other areas use of the chat area: the architect's passes run on its engine (issue 20). */
export interface ChatParts {
  engine: Engine
  ledger: Ledger
  budget: Budget
}

const built = new WeakMap<DaemonContext, ChatParts>()

/** The chat area's engine, ledger and budget for this daemon; the chat area must be built first (areas.ts order). */
/** The chat area's parts when this daemon runs the chat area, else undefined (the metrics read the engine when there is one). */
export const builtChatParts = (context: DaemonContext): ChatParts | undefined => built.get(context)

export function chatPartsOf(context: DaemonContext): ChatParts {
  const parts = built.get(context)
  if (!parts) throw new Error('the chat area must be built before an area that uses its engine (src/daemon/areas.ts)')
  return parts
}

export function chatArea(context: DaemonContext): DaemonArea {
  const budget = createBudget(context, context.chatLimits.maxCostPerDay)
  const engine = createChatEngine(context, {budget})
  const asks = createAsks(context, engine)
  // Resolution first: a task is done before a report wakes whoever delegated it.
  engine.onFinal(resolutionHook(context))
  engine.onFinal(asks.finalHook)
  // Issue 19: a failed turn holds its conversation's queue before the idle that would send the next item.
  engine.onFinal(queuePauseHook(context))
  // Issue 20: what agents report about themselves (debug, src agent) and a deployer's deploys (timeline).
  engine.onFinal(agentReportsHook(context))
  const delegation = startDelegation(context, engine)
  built.set(context, {engine, ledger: delegation.ledger, budget})
  let queue: QueueDispatch | null = null
  let stopTaskEvents: (() => void) | undefined
  // /health is polled: the clients files (and git, asked whether one is tracked) are read at most every 2 s.
  let clientWarnings: {at: number; warnings: Promise<string[]>} | null = null
  const warnings = () => {
    const now = context.clock()
    if (!clientWarnings || now - clientWarnings.at > CLIENT_WARNINGS_CACHE_MS) {
      clientWarnings = {at: now, warnings: loadClients({root: context.root}).then((state) => state.warnings, (error: Error) => [`the clients files cannot be read: ${error.message}`])}
    }
    return clientWarnings.warnings
  }
  return {
    name: 'chat',
    routes: [...chatRoutes(context, engine), ...threadRoutes(context, engine), ...asks.routes, ...queueRoutes(context, engine, {onResumed: (conv) => queue?.kick(conv)}), ...delegation.routes, ...usageRoutes(context, engine, budget)],
    async start() {
      // Today's spend is known before the first turn may start; then lost turns (their clients stopped, their
      // finals written), then the queues, then the open briefs re-sent.
      await budget.start()
      // Issue 20: task.started / task.failed of turns anchored to a task; heard before the first turn can start.
      stopTaskEvents = startTaskEvents(context)
      await engine.start()
      queue = await startQueueDispatch(context, engine, {budget, isCoordinating: (conv) => delegation.ledger.isCoordinating(conv)})
      const recovered = await delegation.recover()
      if (recovered.resent + recovered.closed > 0) context.debug.log({lvl: 'info', tag: 'boot', msg: `delegation requests left open by the last daemon: ${recovered.resent} re-sent, ${recovered.closed} closed`})
    },
    async close() {
      await queue?.stop()
      await engine.close()
      stopTaskEvents?.()
      await delegation.flush()
      budget.close()
    },
    warnings: async () => {
      const held = engine.heldTurns()
      const spent = budget.exhausted() ? [`the day's budget is spent ($${budget.state().spent_usd} of $${budget.state().max_cost_per_day}): new turns are refused${held > 0 ? ` and ${held} conversation(s) wait` : ''} until ${budget.state().resets_at} or the limit is raised`] : []
      return [...(await warnings()), ...spent]
    },
    health: () => {
      const convs = engine.conversations()
      return {chat: {live_turns: convs.filter((conv) => conv.live).length, waiting: convs.reduce((sum, conv) => sum + conv.waiting, 0)}}
    },
  }
}

export type {ChatEngine, TurnFinal, TurnInput} from './types.js'
