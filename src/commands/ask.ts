import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../cli/base-command.js'
import {projectDirFlag} from '../cli/project-dir.js'
import {stdoutIsTTY} from '../cli/tty.js'
import {isMeshError, MeshError} from '../lib/errors.js'
import type {TurnOutcome} from '../client/daemon/send-and-wait.js'
import type {WorkSummary} from '../client/daemon/work-tracker.js'

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8').trim()
}

/** The daemon's refusals of `/chat/send` in the words of this command (docs/cli.md, mesh ask). */
function explained(error: unknown, member: string, conv: string | undefined): unknown {
  if (!isMeshError(error)) return error
  switch (error.code) {
    case 'conv_busy':
      return new MeshError('conflict', 'conv_busy', `Conversation ${conv} is busy: ${member} is still answering in it. Wait for that answer and ask again, or queue this message for its next turn: mesh queue add ${conv} "…"`)
    case 'at_capacity': {
      const after = Number(error.details?.retry_after)
      return new MeshError('rate_limited', 'at_capacity', `The daemon is at capacity (every turn slot busy and its waiting line full); try again${after > 0 ? ` in ${after} s` : ' shortly'}`)
    }
    case 'member_not_found':
      return new MeshError('not_found', 'member_not_found', `No team member ${member}; \`mesh team list\` shows the team, \`mesh team add\` adds one`)
    default:
      return error
  }
}

/** The error a turn that did not end `done` exits with: stopped by the daemon, cancelled, or failed (docs/cli.md, mesh ask). */
function turnError(outcome: TurnOutcome, safe: (text: string) => string): MeshError {
  const who = safe(outcome.profile ?? outcome.member)
  const where = `conversation ${outcome.conv}, turn ${outcome.turn_id}`
  if (outcome.reason === 'shutdown') return new MeshError('unavailable', 'turn_stopped', `${who}'s turn was stopped: the daemon stopped while it ran (${where}). Ask again once it runs (mesh serve).`)
  if (outcome.reason === 'cancelled') return new MeshError('conflict', 'turn_cancelled', `${who}'s turn was cancelled (${where}).`)
  return new MeshError('conflict', 'turn_failed', `${who}'s turn failed (${outcome.reason ?? 'unknown'})${outcome.detail ? `: ${safe(outcome.detail)}` : ''}`)
}

/** What --json adds about the followed work. */
const workJson = (work: WorkSummary | undefined) =>
  work
    ? {
        turns: work.turns.map(({turn_id, conv, member, profile, depth, request_id, status, reason}) => ({turn_id, conv, member, profile, depth, ...(request_id ? {request_id} : {}), ...(status ? {status} : {}), ...(reason ? {reason} : {})})),
        requests: work.requests.map(({request_id, member, conv, outcome}) => ({request_id, member, conv, outcome: outcome ?? 'open'})),
        cost_usd: work.cost_usd,
      }
    : {}

export default class Ask extends MeshCommand {
  static override description = `Talk to a team member: send a message through the running daemon and follow the work it starts.

On a terminal the answer streams line by line as the member's client prints it, then — unless --no-follow — the work it handed on: each delegated turn nested under the turn that delegated it, tool steps, refusals and answers, up to the conversation's end and a closing summary. In a pipe the texts of the asked conversation's turns are printed; --json prints {conv, turn_id, member, status, text, turns, requests, cost_usd}. Ctrl-C cancels the asked turn while it runs (a second Ctrl-C stops waiting at once); once it has ended, Ctrl-C stops following and the work goes on. Each call opens a new conversation unless --conv continues one. A failed, cancelled or stopped turn exits 1 with its reason. Needs \`mesh serve\` running in the project. See docs/cli.md.`

  static override examples = [
    '<%= config.bin %> ask architect "What should we build next?"',
    '<%= config.bin %> ask developer --conv c-3f9a0b1c2d4e "And the tests?"',
    '<%= config.bin %> ask developer --task T12 "Start on this task"',
    '<%= config.bin %> ask architect --no-follow "Plan the release"',
    'git diff | <%= config.bin %> ask reviewer - --json | jq -r .text',
  ]

  static override args = {
    member: Args.string({description: 'the team member who answers (an id of `mesh team list`)', required: true}),
    text: Args.string({description: 'the message; - reads it from stdin', required: true}),
  }

  static override flags = {
    dir: projectDirFlag,
    conv: Flags.string({description: 'continue this conversation (its id, from an earlier answer) instead of opening a new one'}),
    task: Flags.string({description: 'the task this turn works on (its anchor)'}),
    initiative: Flags.string({description: 'the initiative this turn works on'}),
    timeout: Flags.integer({description: 'seconds to wait for the answer (default: as long as the work runs; the turn itself goes on)', min: 1}),
    follow: Flags.boolean({description: 'follow the work the turn hands on until the conversation is idle (--no-follow: the first turn only)', default: true, allowNo: true}),
  }

  async run() {
    const {args, flags} = await this.parse(Ask)
    const text = args.text === '-' ? await readStdin() : args.text
    if (text.trim() === '') throw new MeshError('invalid', 'usage_empty_text', 'The message is empty; pass it as the second argument, or - to read it from stdin')
    const [{connectDaemon}, {readPortalToken}, {sendAndWait}, {markerLineFilter}, {terminalSafe}, {callDaemon}, {createWorkView}] = await Promise.all([
      import('../cli/daemon-session.js'),
      import('../client/daemon/locate.js'),
      import('../client/daemon/send-and-wait.js'),
      import('../client/daemon/marker-lines.js'),
      import('../client/cluster/text.js'),
      import('../client/daemon/daemon-client.js'),
      import('../cli/work-view.js'),
    ])
    const daemon = await connectDaemon(flags.dir)
    const token = await readPortalToken(daemon.root)
    if (!token) throw new MeshError('not_found', 'portal_token_missing', 'The daemon runs but its portal token (.mesh/credentials/portal-token) is missing; restart it with `mesh serve`')

    const live = stdoutIsTTY() && !this.jsonEnabled()
    const colour = live && !process.env.NO_COLOR
    const paint = (code: string, value: string) => (colour ? `\x1b[${code}m${value}\x1b[0m` : value)
    const view = createWorkView({colour, safe: terminalSafe, write: (line) => process.stdout.write(line + '\n'), markerFilter: markerLineFilter})
    const note = (line: string) => process.stderr.write(paint('2', line) + '\n')

    // Ctrl-C cancels the asked turn while it runs (issue 19, See and stop); after it, or a second time, it stops waiting.
    const controller = new AbortController()
    let sent: {conv: string; turn_id: string} | null = null
    let rootEnded = false
    let cancelling = false
    const interrupt = () => {
      if (!sent || rootEnded || cancelling) return controller.abort()
      cancelling = true
      if (live) note(`(cancelling turn ${sent.turn_id}…; Ctrl-C again stops waiting)`)
      // The final reaches the stream (or the poll) within the kill grace; a turn that ended meanwhile is no error.
      void callDaemon({url: daemon.url, token, method: 'POST', path: `/chat/turns/${encodeURIComponent(sent.turn_id)}/cancel`}).catch(() => {})
    }
    const stopWaiting = () => controller.abort()
    process.on('SIGINT', interrupt)
    process.once('SIGTERM', stopWaiting)
    let outcome: TurnOutcome
    try {
      outcome = await sendAndWait({
        url: daemon.url,
        token,
        body: {text, member: args.member, ...(flags.conv ? {conv: flags.conv} : {}), ...(flags.task ? {task: flags.task} : {}), ...(flags.initiative ? {initiative: flags.initiative} : {})},
        timeoutMs: flags.timeout === undefined ? undefined : flags.timeout * 1000,
        signal: controller.signal,
        follow: flags.follow,
        onSent: (answer) => {
          sent = answer
          if (!live) return
          const waiting = answer.state === 'waiting' ? paint('2', ' (waiting for a free turn slot)') : ''
          process.stdout.write(`${paint('1;36', terminalSafe(answer.member))} ${paint('2', `› conversation ${answer.conv}`)}${waiting}\n`)
        },
        onWork: (update) => {
          if (update.kind === 'final' && update.turn.turn_id === sent?.turn_id) rootEnded = true
          if (live) view.show(update)
        },
        onFallback: (reason) => {
          if (live) note(`(${terminalSafe(reason)}; waiting for the answer by polling)`)
        },
      })
    } catch (error) {
      throw explained(error, args.member, flags.conv)
    } finally {
      process.off('SIGINT', interrupt)
      process.off('SIGTERM', stopWaiting)
    }

    const work = outcome.work
    // The asked conversation's answers, in order: the first turn's, then those of the turns its delegations woke.
    const answers = work ? work.turns.filter((turn) => turn.depth === 0 && turn.status === 'done').map((turn) => turn.text ?? '') : outcome.status === 'done' ? [outcome.text] : []
    const result = {conv: outcome.conv, turn_id: outcome.turn_id, member: outcome.member, status: outcome.status, text: outcome.text, ...(outcome.reason ? {reason: outcome.reason} : {}), ...workJson(work), ...(outcome.detached ? {stopped: true} : {})}
    if (live) {
      // Lines the stream missed (a fallback): the final text is the whole answer.
      if (!outcome.streamed && outcome.status === 'done') for (const line of outcome.text.split('\n')) process.stdout.write(terminalSafe(line) + '\n')
      const summary = work ? view.summary(work) : null
      if (summary) process.stdout.write(summary + '\n')
      if (outcome.status === 'done') process.stdout.write(paint('2', `— continue with: mesh ask ${outcome.member} --conv ${outcome.conv} "…"`) + '\n')
    } else if (!this.jsonEnabled()) for (const answer of answers) process.stdout.write(answer + '\n')

    const failure = outcome.status === 'failed' ? turnError(outcome, terminalSafe) : outcome.detached ? new MeshError('unavailable', 'turn_stopped', `The daemon stopped while the work ${outcome.member} started went on (conversation ${outcome.conv}): ${outcome.detached}. Its open delegations are sent again when it starts.`) : null
    if (failure) {
      if (!this.jsonEnabled()) this.error(failure.message, {code: failure.code, exit: 1})
      process.exitCode = 1
    }
    return result
  }
}
