/**
 * One turn from start to final (spec: Agent team member; docs/daemon.md,
 * Chat — a turn): read the card of the profile, choose the client template,
 * build the prompt (the system prompt on a session's first turn, or on every
 * turn of a client that cannot resume), run the process streaming each line
 * as `chat.assistant.delta`, and end with `chat.assistant.final` — whatever
 * the process did. Scheduling and hooks are the engine's.
 */
import {rm} from 'node:fs/promises'
import {join} from 'node:path'
import {writeContainedFile} from '../../lib/contained-files.js'
import type {DaemonContext} from '../context.js'
import {RUNTIME_DIR} from '../constants.js'
import {boundariesFor} from '../team/boundaries.js'
import {listCards, readMember, type MemberCard} from '../team/cards.js'
import {buildCall} from './clients/resolve.js'
import {clientFor, loadClients} from './clients/sources.js'
import {CHAT_RUNTIME_DIR, MAX_SCRIPT_BYTES} from './constants.js'
import {DEFAULT_PINNED, readContextSlice} from './context-slice.js'
import type {StoredConversation} from './conversations.js'
import {parseMarkers} from './markers.js'
import {createPrivateFolder, type PrivateFolder} from './private-files.js'
import {trackProcess, type TrackedProcess} from './processes/records.js'
import {ProjectFileError, readProjectFileNoFollow} from './project-file.js'
import {systemPrompt, teammateCatalog, turnText} from './prompt.js'
import {parseAnchor} from './resolution/anchor.js'
import {runTurnProcess, type RunningTurn, type RunOutcome} from './runner.js'
import type {TurnAnchor, TurnFinal, TurnInput} from './types.js'
import type {ChatDeltaData, ChatFinalData, ChatTurnStartedData} from './wire.js'

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
 * the script client reads exactly the bytes checked here.
 */
async function privateScript(context: DaemonContext, folder: PrivateFolder, owner: MemberCard, name: string): Promise<string> {
  const path = scriptPath(name)
  try {
    return await folder.write('script.yaml', await readProjectFileNoFollow(context.root, path, MAX_SCRIPT_BYTES))
  } catch (error) {
    if (error instanceof ProjectFileError) throw new Error(`the script of ${owner.id} cannot be used: ${error.message}`)
    throw error
  }
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
  const startedAt = new Date(context.clock()).toISOString()
  const anchor: TurnAnchor | undefined = inputs.find((input) => input.anchor)?.anchor
  const lines: string[] = []
  const turnFileRelative = `${RUNTIME_DIR}/${CHAT_RUNTIME_DIR}/turns/${turn_id}.json`
  const turnFile = context.meshPath(...turnFileRelative.split('/'))
  let running: RunningTurn | null = null
  let stopped: StopReason | null = null
  let folder: PrivateFolder | null = null
  let tracked: TrackedProcess | null = null

  const finish = async (outcome: RunOutcome): Promise<TurnFinal> => {
    await tracked?.release()
    await rm(turnFile, {force: true}).catch(() => {})
    await folder?.remove()
    const raw = lines.join('\n')
    const {markers, text} = parseMarkers(raw)
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
      finished_at: new Date(context.clock()).toISOString(),
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
    const chosen = clientFor(await loadClients({root: context.root}), clientName)
    if ('refused' in chosen) throw new Error(`${owner.id}'s client ${clientName} cannot run: ${chosen.refused}`)
    const {template} = chosen
    const model = owner.model ?? (template.defaultModel || owner.id)
    folder = await createPrivateFolder(context.meshPath(RUNTIME_DIR, CHAT_RUNTIME_DIR))
    const script = clientName === 'script' ? await privateScript(context, folder, owner, model) : ''
    const stateless = template.resume === undefined
    const first = conv.turns === 0 || stateless
    let text = turnText(inputs, anchor)
    if (card !== owner) text = `For this turn only you act as ${card.id} (${card.title ?? card.id}):\n\n${card.prompt.trim()}\n\n---\n\n${text}`
    const system = first ? await firstTurnSystem(context, owner) : null
    const call = buildCall(template, {model, session: conv.session_id, system, prompt: text, effort: owner.effort, script, firstTurn: first, systemFile: join(folder.path, 'system.md'), promptFile: join(folder.path, 'prompt.md')})
    for (const file of call.files) await folder.write(file.path.slice(folder.path.length + 1), file.content)
    // The turn file holds the asker's text: the owner's alone, like the private files. A linked .runtime/
    // folder is refused (issue 18): the turn fails rather than write outside .mesh/.
    await writeContainedFile(context.meshPath(), turnFileRelative, JSON.stringify({conv: conv.conv, member: conv.member, profile, turn: conv.turns + 1, session: conv.session_id, text, request_ids: inputs.flatMap((input) => input.request_ids ?? []), anchor}), {mode: 0o600})
    context.timeline.append('chat.turn.started', {author: 'daemon', text: '', conv: conv.conv, turn_id, member: conv.member, profile, client: clientName, model, origin: inputs[0].origin, resumed: call.resumed} satisfies ChatTurnStartedData)
    return {call, timeoutMs: context.chatLimits.turnTimeoutMs, scriptName: clientName === 'script' ? scriptPath(model) : null}
  })()

  const final = prepared.then(
    ({call, timeoutMs, scriptName}) => {
      if (stopped) return finish({status: 'failed', reason: stopped, exit_code: null, signal: null, detail: stopped === 'cancelled' ? 'cancelled before its client started' : 'the daemon stopped before the turn began'})
      let seq = 0
      running = runTurnProcess({
        argv: call.argv,
        stdin: call.stdin,
        cwd: context.root,
        env: {...(process.env as Record<string, string>), MESH_TURN_FILE: turnFile, MESH_CONV: conv.conv, MESH_MEMBER: profile, MESH_TURN_ID: turn_id, ...(scriptName ? {MESH_SCRIPT_NAME: scriptName} : {})},
        timeoutMs,
        onLine(line) {
          lines.push(line)
          context.timeline.append('chat.assistant.delta', {author: profile, text: line, conv: conv.conv, turn_id, member: conv.member, seq: seq++} satisfies ChatDeltaData)
        },
      })
      // Issue 19, Recovery: a daemon killed now leaves this record, and its next start stops the client.
      tracked = trackProcess(context, {turn_id, conv: conv.conv, member: conv.member, profile, started_at: startedAt, request_ids: inputs.flatMap((input) => input.request_ids ?? [])}, running.pid)
      return running.done.then(finish)
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
