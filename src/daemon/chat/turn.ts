/**
 * One turn from start to final (spec: Agent team member; docs/daemon.md,
 * Chat — a turn): read the card of the profile, choose the client template,
 * its access level and its session (resumed, or fresh: sessions.ts), build
 * the prompt (the system prompt with a fresh session), run the process
 * decoding its stream (turn-output.ts) into `chat.assistant.delta` lines and
 * `chat.tool` steps, and end with `chat.assistant.final` — its usage
 * included — whatever the process did. Scheduling and hooks are the engine's.
 */
import {rm} from 'node:fs/promises'
import {join} from 'node:path'
import {writeContainedFile} from '../../lib/contained-files.js'
import type {DaemonContext} from '../context.js'
import {RUNTIME_DIR} from '../constants.js'
import {boundariesFor} from '../team/boundaries.js'
import {listCards, readMember, type MemberCard} from '../team/cards.js'
import {turnAccess} from './clients/access.js'
import {buildCall, MESH_BIN_PATH} from './clients/resolve.js'
import {clientFor, loadClients} from './clients/sources.js'
import type {StreamFormat, StreamReport} from './clients/streams/index.js'
import {clientEnv} from './client-env.js'
import {CHAT_RUNTIME_DIR, MAX_SCRIPT_BYTES, MAX_STREAM_BYTES, MAX_STREAM_LINE_BYTES} from './constants.js'
import {DEFAULT_PINNED, readContextSlice} from './context-slice.js'
import type {StoredConversation} from './conversations.js'
import {parseMarkers} from './markers.js'
import {cleanText} from './output-lines.js'
import {createPrivateFolder, type PrivateFolder} from './private-files.js'
import {trackProcess, type TrackedProcess} from './processes/records.js'
import {ProjectFileError, readProjectFileNoFollow} from './project-file.js'
import {systemPrompt, teammateCatalog, turnText} from './prompt.js'
import {parseAnchor} from './resolution/anchor.js'
import {runTurnProcess, type RunningTurn, type RunOutcome} from './runner.js'
import {isSandboxed} from './sandbox.js'
import {parseScript} from './script/script.js'
import {planSession, settleSession} from './sessions.js'
import {toolLine} from './tool-summary.js'
import {createTurnOutput, type TurnOutput} from './turn-output.js'
import type {TurnAnchor, TurnFinal, TurnInput, TurnUsage} from './types.js'
import type {ChatDeltaData, ChatFinalData, ChatSessionData, ChatToolData, ChatTurnStartedData} from './wire.js'

export interface TurnStart {
  turn_id: string
  conv: StoredConversation
  inputs: TurnInput[]
  /** The profile for this turn (become), or the conv's member. */
  profile: string
}

/**
 * Where the script client finds a member's script, relative to the project
 * root: `.mesh/scripts/<name>.yaml`, or a path inside the repository when the
 * name has a `/` or ends in `.yaml`/`.yml`.
 */
export function scriptPath(name: string): string {
  return name.includes('/') || name.endsWith('.yaml') || name.endsWith('.yml') ? name : join('.mesh', 'scripts', `${name}.yaml`)
}

/**
 * The member's script, copied into the turn's private folder: read without
 * following a link at any step and only from inside its folder (issue 18), so
 * the script client reads exactly the bytes checked here. Its `format` says
 * how its stdout is decoded (a broken script is the client's to report).
 */
async function privateScript(context: DaemonContext, folder: PrivateFolder, owner: MemberCard, name: string): Promise<{path: string; format: StreamFormat}> {
  const path = scriptPath(name)
  try {
    const bytes = await readProjectFileNoFollow(context.root, path, MAX_SCRIPT_BYTES)
    let format: StreamFormat = 'text'
    try {
      format = parseScript(bytes.toString('utf8')).format
    } catch {
      // The client says what is wrong with it, and exits 2.
    }
    return {path: await folder.write('script.yaml', bytes), format}
  } catch (error) {
    if (error instanceof ProjectFileError) throw new Error(`the script of ${owner.id} cannot be used: ${error.message}`)
    throw error
  }
}

/** The usage of a turn: what the client reported, the daemon's duration and tool count. */
function usageOf(report: StreamReport | null, output: TurnOutput | null, durationMs: number): TurnUsage {
  const reported = report?.usage
  return {
    input_tokens: reported?.input_tokens ?? null,
    output_tokens: reported?.output_tokens ?? null,
    cache_read_tokens: reported?.cache_read_tokens ?? null,
    cache_write_tokens: reported?.cache_write_tokens ?? null,
    cost_usd: reported?.cost_usd ?? null,
    duration_ms: durationMs,
    tool_calls: output?.toolCalls() ?? 0,
  }
}

/** A client that exited 0 but declared an error in its stream failed; a failure says the client's own words too. */
function withReport(outcome: RunOutcome, client: string, report: StreamReport | null): RunOutcome {
  if (!report?.error) return outcome
  const said = `${client} reported: ${report.error.replace(/\s+/g, ' ').slice(0, 300)}`
  if (outcome.status === 'done') return {...outcome, status: 'failed', reason: 'exit', detail: said}
  return {...outcome, detail: outcome.detail ? `${outcome.detail}; ${said}` : said}
}

async function firstTurnSystem(context: DaemonContext, card: MemberCard): Promise<string> {
  const roster = await listCards(context)
  const ids = card.context.length > 0 ? card.context : DEFAULT_PINNED
  const {files, missing} = await readContextSlice(context, ids)
  if (missing.length > 0) context.debug.log({lvl: 'warn', tag: 'chat', msg: `${card.id}: context ${missing.join(', ')} names no file under .mesh/context/`, agent_id: card.id})
  return systemPrompt({member: card, files, catalog: teammateCatalog(card.id, roster), boundaries: boundariesFor(roster.map((member) => member.id), card.id)})
}

/** Why a turn is stopped from outside: the daemon stops, or the operator cancels it (issue 19, See and stop). */
export type StopReason = 'shutdown' | 'cancelled'

export interface StartedTurn {
  /** Stops the turn: a process running has its group killed (SIGTERM, SIGKILL after the grace), one not yet spawned never is. */
  kill(reason: StopReason): void
  final: Promise<TurnFinal>
}

/** Starts the turn's process; `final` settles once `chat.assistant.final` is out. Never rejects. */
export function startTurn(context: DaemonContext, start: TurnStart): StartedTurn {
  const {turn_id, conv, inputs, profile} = start
  const startedMs = context.clock()
  const startedAt = new Date(startedMs).toISOString()
  const anchor: TurnAnchor | undefined = inputs.find((input) => input.anchor)?.anchor
  const turnFileRelative = `${RUNTIME_DIR}/${CHAT_RUNTIME_DIR}/turns/${turn_id}.json`
  const turnFile = context.meshPath(...turnFileRelative.split('/'))
  let running: RunningTurn | null = null
  let stopped: StopReason | null = null
  let folder: PrivateFolder | null = null
  let tracked: TrackedProcess | null = null

  /** Ends the turn: `run` is the process's decoded output and session, absent when no process ran. */
  const finish = async (ended: RunOutcome, run?: {output: TurnOutput; client: string; settle(outcome: RunOutcome, report: StreamReport): void}): Promise<TurnFinal> => {
    await tracked?.release()
    await rm(turnFile, {force: true}).catch(() => {})
    await folder?.remove()
    const report = run ? run.output.report() : null
    const outcome = run ? withReport(ended, run.client, report) : ended
    if (run && report) run.settle(outcome, report)
    const raw = run ? run.output.text() : ''
    const {markers, text: shown} = parseMarkers(raw)
    // The result's text is the answer (claude's result, codex's last message); output past the limit is kept once, in the deltas.
    const text = outcome.reason === 'output_too_large' ? '' : report?.resultText != null ? parseMarkers(cleanText(report.resultText)).text : shown
    const finishedMs = context.clock()
    const usage = usageOf(report, run?.output ?? null, finishedMs - startedMs)
    const final: TurnFinal = {
      conv: conv.conv,
      turn_id,
      member: conv.member,
      profile,
      status: outcome.status,
      ...(outcome.reason ? {reason: outcome.reason, ...(outcome.detail ? {detail: outcome.detail} : {})} : {}),
      exit_code: outcome.exit_code,
      text,
      raw,
      markers,
      anchor: parseAnchor(raw) ?? anchor,
      inputs,
      started_at: startedAt,
      finished_at: new Date(finishedMs).toISOString(),
      usage,
    }
    for (const marker of markers) if (marker.kind === 'invalid') context.debug.log({lvl: 'warn', tag: 'chat', msg: `${profile} in ${conv.conv}: ${marker.error}`, conv: conv.conv, agent_id: profile})
    context.timeline.append('chat.assistant.final', {
      author: profile,
      text,
      conv: conv.conv,
      turn_id,
      member: conv.member,
      profile,
      status: final.status,
      ...(outcome.reason ? {reason: outcome.reason, detail: outcome.detail} : {}),
      exit_code: outcome.exit_code,
      ...(final.anchor ? {anchor: final.anchor} : {}),
      usage,
    } satisfies ChatFinalData)
    if (outcome.status === 'failed') context.debug.log({lvl: 'warn', tag: 'subagent-final', msg: `turn ${turn_id} of ${profile} in ${conv.conv} failed: ${outcome.detail ?? outcome.reason}`, conv: conv.conv, agent_id: profile})
    return final
  }

  const prepared = (async () => {
    // become (spec v36): the teammate's profile, the conv member's client and session.
    const owner = await readMember(context, conv.member)
    const card = profile === conv.member ? owner : await readMember(context, profile)
    if (owner.problem) throw new Error(`the card of ${owner.id} cannot be used: ${owner.problem}`)
    if (card.problem) throw new Error(`the card of ${card.id} cannot be used: ${card.problem}`)
    const clientName = owner.client ?? 'claude'
    // Read afresh each turn: a file trusted, changed or committed since the last one counts now.
    const clients = await loadClients({root: context.root})
    const chosen = clientFor(clients, clientName)
    if ('refused' in chosen) throw new Error(`${owner.id}'s client ${clientName} cannot run: ${chosen.refused}`)
    // issue 19: a member-token ask runs at read, whatever the member's level.
    const access = turnAccess(clients, {owner: owner.id, profile: card.id, ask: inputs.some((input) => input.origin === 'ask')})
    if ('refused' in access) throw new Error(`${card.id} cannot run: ${access.refused}`)
    const {template} = chosen
    const model = owner.model ?? (template.defaultModel || owner.id)
    folder = await createPrivateFolder(context.meshPath(RUNTIME_DIR, CHAT_RUNTIME_DIR))
    const script = clientName === 'script' ? await privateScript(context, folder, owner, model) : null
    const format = script?.format ?? template.format
    const session = planSession(conv, clientName, template)
    const first = !session.resume
    let text = turnText(inputs, anchor)
    if (card !== owner) text = `For this turn only you act as ${card.id} (${card.title ?? card.id}):\n\n${card.prompt.trim()}\n\n---\n\n${text}`
    const system = first ? await firstTurnSystem(context, owner) : null
    // issue 24: the project's MCP server, as the turn's profile at the turn's level; never for a turn an asker may steer (its markers are not acted on either).
    const mcp = clients.mcp[owner.id] === true && !isSandboxed({conv: conv.conv, inputs}) ? {command: process.execPath, args: [MESH_BIN_PATH, 'mcp', '--dir', context.root, '--member', profile, '--access', access.level, '--conv', conv.conv]} : null
    const call = buildCall(template, {model, session: session.session, system, prompt: text, effort: owner.effort, access: access.level, script: script?.path ?? '', firstTurn: first, systemFile: join(folder.path, 'system.md'), promptFile: join(folder.path, 'prompt.md'), mcp, mcpFile: join(folder.path, 'mcp.json')})
    for (const file of call.files) await folder.write(file.path.slice(folder.path.length + 1), file.content)
    // The turn file holds the asker's text: the owner's alone, like the private files. A linked .runtime/
    // folder is refused (issue 18): the turn fails rather than write outside .mesh/.
    await writeContainedFile(context.meshPath(), turnFileRelative, JSON.stringify({conv: conv.conv, member: conv.member, profile, turn: conv.turns + 1, session: session.session, access: access.level, text, request_ids: inputs.flatMap((input) => input.request_ids ?? []), anchor}), {mode: 0o600})
    if (session.note) {
      context.timeline.append('chat.session', {author: 'daemon', text: session.note, conv: conv.conv, turn_id, member: conv.member, session: session.session, resumed: false} satisfies ChatSessionData)
      context.debug.log({lvl: 'info', tag: 'chat', msg: `${conv.conv}: ${session.note}`, conv: conv.conv, agent_id: conv.member})
    }
    context.timeline.append('chat.turn.started', {author: 'daemon', text: '', conv: conv.conv, turn_id, member: conv.member, profile, client: clientName, model, origin: inputs[0].origin, resumed: call.resumed, access: access.level, ...(anchor?.task ? {anchor} : {})} satisfies ChatTurnStartedData)
    return {call, timeoutMs: context.chatLimits.turnTimeoutMs, scriptName: script ? scriptPath(model) : null, format, session, clientName, template}
  })()

  const final = prepared.then(
    ({call, timeoutMs, scriptName, format, session, clientName, template}) => {
      if (stopped) return finish({status: 'failed', reason: stopped, exit_code: null, signal: null, detail: stopped === 'cancelled' ? 'cancelled before its client started' : 'the daemon stopped before the turn began'})
      let seq = 0
      let toolSeq = 0
      const output = createTurnOutput({
        format,
        root: context.root,
        onLine(line) {
          context.timeline.append('chat.assistant.delta', {author: profile, text: line, conv: conv.conv, turn_id, member: conv.member, seq: seq++} satisfies ChatDeltaData)
        },
        onTool(event) {
          context.timeline.append('chat.tool', {author: profile, text: toolLine(event.tool, event.summary), conv: conv.conv, turn_id, member: conv.member, seq: toolSeq++, ...event} satisfies ChatToolData)
        },
        debug(message) {
          context.debug.log({lvl: 'debug', tag: 'chat.stream', msg: `${profile} in ${conv.conv}: ${message}`, conv: conv.conv, agent_id: profile})
        },
        onTooLarge: () => running?.kill('output_too_large'),
      })
      const structured = format !== 'text'
      running = runTurnProcess({
        argv: call.argv,
        stdin: call.stdin,
        cwd: context.root,
        env: clientEnv(process.env, {...call.env, MESH_TURN_FILE: turnFile, MESH_CONV: conv.conv, MESH_MEMBER: profile, MESH_TURN_ID: turn_id, ...(scriptName ? {MESH_SCRIPT_NAME: scriptName} : {})}),
        timeoutMs,
        onLine: output.line,
        // A structured stream's lines are JSON, decoded before they are cleaned; one may be long (a tool's output).
        ...(structured ? {split: {clean: false, maxChars: MAX_STREAM_LINE_BYTES, onOverlong: (chars: number) => context.debug.log({lvl: 'warn', tag: 'chat.stream', msg: `${profile} in ${conv.conv}: skipped a line of ${chars} characters`, conv: conv.conv, agent_id: profile})}, maxBytes: MAX_STREAM_BYTES} : {}),
      })
      const settle = (outcome: RunOutcome, report: StreamReport) =>
        settleSession(conv, clientName, template, session, {status: outcome.status, reason: outcome.reason, confirmed: report.session, structured, why: outcome.detail?.slice(0, 200) ?? outcome.reason})
      // Issue 19, Recovery: a daemon killed now leaves this record, and its next start stops the client.
      tracked = trackProcess(context, {turn_id, conv: conv.conv, member: conv.member, profile, started_at: startedAt, request_ids: inputs.flatMap((input) => input.request_ids ?? [])}, running.pid)
      return running.done.then((outcome) => {
        output.end()
        return finish(outcome, {output, client: clientName, settle})
      })
    },
    (error: Error) => finish({status: 'failed', reason: 'spawn', exit_code: null, signal: null, detail: error.message}),
  )
  return {
    kill(reason) {
      stopped ??= reason
      running?.kill(reason)
    },
    final,
  }
}
