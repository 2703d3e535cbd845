import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../cli/base-command.js'
import {projectDirFlag} from '../cli/project-dir.js'
import {stdoutIsTTY} from '../cli/tty.js'
import {isMeshError, MeshError} from '../lib/errors.js'
import type {TurnOutcome} from '../client/daemon/send-and-wait.js'

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

export default class Ask extends MeshCommand {
  static override description = `Talk to a team member: send a message through the running daemon and print the answer.

On a terminal the answer streams line by line as the member's client prints it; in a pipe only the final text is printed; --json prints {conv, turn_id, member, status, text}. Each call opens a new conversation unless --conv continues one (the conversation id is shown at the end, and in --json). A failed turn exits 1 with its reason. Needs \`mesh serve\` running in the project. See docs/cli.md.`

  static override examples = [
    '<%= config.bin %> ask architect "What should we build next?"',
    '<%= config.bin %> ask developer --conv c-3f9a0b1c2d4e "And the tests?"',
    '<%= config.bin %> ask developer --task T12 "Start on this task"',
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
    timeout: Flags.integer({description: 'seconds to wait for the answer (default: as long as the turn runs; the turn itself goes on)', min: 1}),
  }

  async run() {
    const {args, flags} = await this.parse(Ask)
    const text = args.text === '-' ? await readStdin() : args.text
    if (text.trim() === '') throw new MeshError('invalid', 'usage_empty_text', 'The message is empty; pass it as the second argument, or - to read it from stdin')
    const [{connectDaemon}, {readPortalToken}, {sendAndWait}, {markerLineFilter}, {terminalSafe}] = await Promise.all([
      import('../cli/daemon-session.js'),
      import('../client/daemon/locate.js'),
      import('../client/daemon/send-and-wait.js'),
      import('../client/daemon/marker-lines.js'),
      import('../client/cluster/text.js'),
    ])
    const daemon = await connectDaemon(flags.dir)
    const token = await readPortalToken(daemon.root)
    if (!token) throw new MeshError('not_found', 'portal_token_missing', 'The daemon runs but its portal token (.mesh/credentials/portal-token) is missing; restart it with `mesh serve`')

    const live = stdoutIsTTY() && !this.jsonEnabled()
    const colour = live && !process.env.NO_COLOR
    const paint = (code: string, value: string) => (colour ? `\x1b[${code}m${value}\x1b[0m` : value)
    const lines = markerLineFilter()
    const show = (line: string) => process.stdout.write(terminalSafe(line) + '\n')

    const controller = new AbortController()
    const stop = () => controller.abort()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    let outcome: TurnOutcome
    try {
      outcome = await sendAndWait({
        url: daemon.url,
        token,
        body: {text, member: args.member, ...(flags.conv ? {conv: flags.conv} : {}), ...(flags.task ? {task: flags.task} : {}), ...(flags.initiative ? {initiative: flags.initiative} : {})},
        timeoutMs: flags.timeout === undefined ? undefined : flags.timeout * 1000,
        signal: controller.signal,
        onSent: (sent) => {
          if (!live) return
          const waiting = sent.state === 'waiting' ? paint('2', ' (waiting for a free turn slot)') : ''
          process.stdout.write(`${paint('1;36', terminalSafe(sent.member))} ${paint('2', `› conversation ${sent.conv}`)}${waiting}\n`)
        },
        onDelta: (line) => {
          if (live) for (const shown of lines.push(line)) show(shown)
        },
        onFallback: (reason) => {
          if (live) process.stderr.write(paint('2', `(${terminalSafe(reason)}; waiting for the answer by polling)`) + '\n')
        },
      })
    } catch (error) {
      throw explained(error, args.member, flags.conv)
    } finally {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    }

    const result = {conv: outcome.conv, turn_id: outcome.turn_id, member: outcome.member, status: outcome.status, text: outcome.text, ...(outcome.reason ? {reason: outcome.reason} : {})}
    const failure = `${outcome.profile ?? outcome.member}'s turn failed (${outcome.reason ?? 'unknown'})${outcome.detail ? `: ${outcome.detail}` : ''}`
    if (live) {
      for (const shown of lines.end()) show(shown)
      // Lines the stream missed (a fallback): the final text is the whole answer.
      if (!outcome.streamed) for (const line of outcome.text.split('\n')) show(line)
      if (outcome.status === 'done') process.stdout.write(paint('2', `— continue with: mesh ask ${outcome.member} --conv ${outcome.conv} "…"`) + '\n')
    } else if (!this.jsonEnabled() && outcome.status === 'done') process.stdout.write(outcome.text + '\n')
    if (outcome.status === 'failed') {
      if (!this.jsonEnabled()) this.error(terminalSafe(failure), {code: 'turn_failed', exit: 1})
      process.exitCode = 1
    }
    return result
  }
}
