/**
 * Architect passes (issue 20; docs/daemon.md, Architect): one at a time, in
 * the conversation `arch-pass`. A pass starts with one turn of the
 * architect, handed the dispatchable tasks; it works through them by
 * delegating (the `mesh-delegate` markers and the delegation machinery),
 * and is woken in the same conversation as each brief is answered. The pass
 * ends when that conversation goes idle — its last turn's final is out,
 * nothing runs or waits in it, and it waits on no brief it made (the
 * engine's `chat.idle`) — or when it is stopped. It ends with one
 * `decisions:` line (decisions.ts), in the timeline and the debug stream.
 */
import {conflict} from '../../lib/errors.js'
import type {Board} from '../../standard/tasks/dispatchable.js'
import {COORDINATOR, newId} from '../chat/constants.js'
import type {ChatParts} from '../chat/index.js'
import type {TurnFinal} from '../chat/types.js'
import type {DaemonContext} from '../context.js'
import {passBriefText} from './brief.js'
import {PASS_CONV, PASS_ENDED_EVENT, PASS_ID_PREFIX, PASS_STARTED_EVENT, TAG_PASS} from './constants.js'
import {decisionsLine, findDecisionsLine} from './decisions.js'
import {passRecordFile, type RunningPassRecord} from './pass-record.js'
import type {EndedPass, PassEndedData, PassStartedData, PassStatus, PassTrigger, PassView} from './wire.js'

interface RunningPass extends RunningPassRecord {
  /** The ticket of the pass's first turn (cancellable while it waits). */
  first_turn: string
  /** The last final of the pass's conversation: how the pass ended when it goes idle. */
  last_final: {status: 'done' | 'failed'; reason?: string} | null
  /** The last `decisions:` line the architect wrote in this pass. */
  architect_line: string | null
  /** stop() is ending it: the cancelled turn's idle must not end it first, with other words. */
  stopping: boolean
}

export interface Passes {
  current(): PassView | null
  last(): EndedPass | null
  /** Why the architect cannot take a pass now, in words; null when it can. */
  busy(): string | null
  /** Starts a pass with this board (dispatchable tasks, drafts); rejects with the engine's refusal. */
  start(trigger: PassTrigger, board: Board, tasks?: string[]): Promise<PassView>
  /** Stops the pass under way: its running or waiting turn is cancelled and it ends `stopped`. 409 `pass_not_running`. */
  stop(): Promise<EndedPass>
  /** Called after each pass ends. */
  onEnded(listener: (pass: EndedPass) => void): void
  /** Ends a pass a killed daemon left (read from the record file): once, at start. */
  recover(): void
  /** Ends the pass under way as stopped (`the daemon stopped`) and writes the record. */
  close(): Promise<void>
}

export function createPasses(context: DaemonContext, chat: ChatParts): Passes {
  const {engine, ledger} = chat
  const file = passRecordFile(context)
  const loaded = file.load()
  let pass: RunningPass | null = null
  let last: EndedPass | null = loaded.last
  const endedListeners: Array<(pass: EndedPass) => void> = []

  const record = (running: RunningPass): RunningPassRecord => ({pass_id: running.pass_id, trigger: running.trigger, conv: running.conv, started_at: running.started_at, offered: running.offered, drafts: running.drafts, briefs: running.briefs, refused: running.refused})
  const save = () => file.save({version: 1, current: pass ? record(pass) : null, last})

  const turnOf = (running: RunningPass): string | null => {
    const live = engine.conversation(running.conv)?.turn_id
    if (live) return live
    return engine.turn(running.first_turn)?.status === 'waiting' ? running.first_turn : null
  }

  const view = (running: RunningPass): PassView => ({
    pass_id: running.pass_id,
    trigger: running.trigger,
    conv: running.conv,
    status: 'running',
    started_at: running.started_at,
    dispatchable: running.offered,
    drafts: running.drafts.length,
    turn_id: turnOf(running),
    briefs: running.briefs,
  })

  /** Ends `running` (once): the decisions line to the debug stream, then `architect.pass.ended` to the timeline. */
  function end(running: RunningPassRecord & Partial<RunningPass>, status: PassStatus, ending?: string): EndedPass {
    const decisions = decisionsLine({status, ending, offered: running.offered, drafts: running.drafts, briefs: running.briefs, refused: running.refused, architectLine: running.architect_line ?? null})
    const ended: EndedPass = {pass_id: running.pass_id, trigger: running.trigger, conv: running.conv, status, started_at: running.started_at, ended_at: new Date(context.clock()).toISOString(), decisions}
    if (pass?.pass_id === running.pass_id) pass = null
    last = ended
    save()
    context.debug.log({lvl: status === 'failed' ? 'warn' : 'info', tag: TAG_PASS, msg: decisions, conv: running.conv, agent_id: COORDINATOR, data: {pass_id: running.pass_id, status}})
    context.timeline.append(PASS_ENDED_EVENT, {author: 'daemon', text: decisions, pass_id: running.pass_id, conv: running.conv, status, decisions} satisfies PassEndedData)
    for (const listener of endedListeners) listener(ended)
    return ended
  }

  // What the pass hands out and what is refused: the delegation events of its conversation.
  context.events.subscribe((event) => {
    if (!pass) return
    const data = event.data as Record<string, unknown>
    if (event.type === 'delegation.opened' && (data.requester as {conv?: unknown} | undefined)?.conv === pass.conv) {
      const task = (data.anchor as {task?: unknown} | undefined)?.task
      pass.briefs.push({request_id: String(data.request_id), member: String(data.member), task: typeof task === 'string' ? task : null})
      save()
    } else if (event.type === 'delegation.refused' && data.from_conv === pass.conv) {
      pass.refused.push({member: String(data.member), task: typeof data.task === 'string' ? data.task : null, code: String(data.code)})
      save()
    }
  })

  engine.onFinal((final: TurnFinal) => {
    if (!pass || final.conv !== pass.conv) return
    pass.last_final = {status: final.status, ...(final.reason ? {reason: final.reason} : {})}
    pass.architect_line = findDecisionsLine(final.text) ?? pass.architect_line
  })

  // The pass ends when its conversation is idle: nothing runs or waits there and no brief of it is open.
  engine.onIdle((conv) => {
    if (!pass || conv !== pass.conv || pass.stopping) return
    const lastFinal = pass.last_final
    if (lastFinal?.status === 'failed') {
      if (lastFinal.reason === 'cancelled') end(pass, 'stopped', 'its turn was cancelled')
      else end(pass, 'failed', `the architect's turn failed (${lastFinal.reason ?? 'exit'})`)
    } else end(pass, 'done')
  })

  return {
    current: () => (pass ? view(pass) : null),
    last: () => last,
    busy() {
      if (pass) return `pass ${pass.pass_id} is under way in ${pass.conv}`
      const open = ledger.requestsBy(PASS_CONV).length
      if (open > 0) return `${PASS_CONV} still waits on ${open} brief(s) of an earlier pass`
      const live = engine.conversations().find((conv) => conv.member === COORDINATOR && engine.isLive(conv.conv))
      return live ? `the architect has a turn running or waiting in ${live.conv}` : null
    },
    async start(trigger, board, tasks) {
      if (pass) throw conflict('architect_busy', `Pass ${pass.pass_id} is under way`)
      const pass_id = newId(PASS_ID_PREFIX)
      const text = passBriefText({pass_id, trigger, tasks, dispatchable: board.dispatchable, drafts: board.drafts})
      const submitted = await engine.submit({conv: PASS_CONV, member: COORDINATOR, text, author: 'daemon', origin: 'pass', meta: {pass_id}})
      pass = {
        pass_id,
        trigger,
        conv: PASS_CONV,
        started_at: new Date(context.clock()).toISOString(),
        offered: board.dispatchable.map((task) => task.id),
        drafts: board.drafts.map((task) => task.id),
        briefs: [],
        refused: [],
        first_turn: submitted.turn_id,
        last_final: null,
        architect_line: null,
        stopping: false,
      }
      save()
      const drafts = pass.drafts.length
      const started = `pass ${pass_id} (${trigger}): ${pass.offered.length} dispatchable task(s) handed to ${COORDINATOR} (${pass.offered.join(', ')}); ${drafts} draft(s) skipped`
      context.debug.log({lvl: 'info', tag: TAG_PASS, msg: started, conv: PASS_CONV, agent_id: COORDINATOR, data: {pass_id, trigger, dispatchable: pass.offered, drafts}})
      context.timeline.append(PASS_STARTED_EVENT, {author: 'daemon', text: started, pass_id, trigger, conv: PASS_CONV, dispatchable: pass.offered, drafts} satisfies PassStartedData)
      return view(pass)
    },
    async stop() {
      const running = pass
      if (!running) throw conflict('pass_not_running', 'No architect pass is running')
      if (running.stopping) throw conflict('pass_not_running', `Pass ${running.pass_id} is being stopped`)
      running.stopping = true
      const turn = turnOf(running)
      if (turn) {
        // Issue 19's cancel: SIGTERM to the client's group, SIGKILL after the grace; answers once the final is out.
        await engine.cancel(turn).catch((error: Error) => context.debug.log({lvl: 'debug', tag: TAG_PASS, msg: `stopping ${running.pass_id}: turn ${turn} not cancelled (${error.message})`, conv: running.conv}))
      }
      if (pass?.pass_id !== running.pass_id) return last!
      return end(running, 'stopped', 'stopped by the operator')
    },
    onEnded(listener) {
      endedListeners.push(listener)
    },
    recover() {
      const left = loaded.current
      if (!left) return
      end(left, 'failed', 'the daemon was stopped or killed during the pass')
    },
    async close() {
      if (pass) end(pass, 'stopped', 'the daemon stopped')
      await file.flush()
    },
  }
}
