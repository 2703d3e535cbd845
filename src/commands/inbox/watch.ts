import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {stdoutIsTTY} from '../../cli/tty.js'
import {openCheckedSession} from '../../cli/session-flags.js'
import {isMeshError, MeshError} from '../../lib/errors.js'
import {sessionFlags} from '../../cli/inbox-flags.js'

export default class InboxWatch extends MeshCommand {
  static override description = `Follow your agent's live messages over the registry WebSocket until interrupted.

Prints every frame the registry sends: direct messages, delivery receipts, errors. On a terminal: one readable line each. On a pipe or with --json: one JSON frame per line (NDJSON), exactly as received. Reconnects on its own after a drop or a registry restart (progress on stderr). Stored inbox messages are not shown: read them with \`mesh inbox read\`.`

  static override examples = [
    '<%= config.bin %> inbox watch',
    '<%= config.bin %> inbox watch --agent weather-bot | jq -c "select(.type == \\"message\\") | .payload"',
  ]

  static override flags = {
    ...sessionFlags,
    'connect-to': Flags.string({description: 'open a direct room with this peer once connected'}),
  }

  protected override streamsNdjson = true

  async run() {
    const {flags} = await this.parse(InboxWatch)
    const {watchAgentSocket} = await import('../../client/registry/inbox-watch.js')
    const {formatFrameLine} = await import('../../client/registry/inbox-format.js')
    const session = await openCheckedSession(flags)
    const human = stdoutIsTTY() && !this.jsonEnabled()
    const controller = new AbortController()
    const stop = () => controller.abort()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    // A frame of an unexpected shape is shown as it came rather than stopping the watch.
    const readable = (frame: Record<string, unknown>) => {
      try {
        return formatFrameLine(frame)
      } catch {
        return JSON.stringify(frame)
      }
    }
    let frames = 0
    try {
      await watchAgentSocket({
        session,
        signal: controller.signal,
        initialFrames: flags['connect-to'] ? [{msg_type: 'connect_to', to: flags['connect-to']}] : [],
        onFrame: (frame) => {
          frames++
          process.stdout.write((human ? readable(frame) : JSON.stringify(frame)) + '\n')
        },
        onEvent: (event) => {
          if (event.event === 'reconnecting') process.stderr.write(`connection lost (${event.reason}); reconnecting in ${(event.in_ms / 1000).toFixed(1)} s\n`)
        },
      })
    } catch (error) {
      // A bare status (e.g. a web server answering the upgrade with 200) says nothing about what is wrong.
      if (isMeshError(error) && /^http_\d+$/.test(error.code)) {
        throw new MeshError(error.kind, error.code, `The registry at ${session.registry} did not open the agent WebSocket (${error.message}); is that address a mesh registry?`)
      }
      throw error
    } finally {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    }
    if (human) this.log(`stopped after ${frames} frame(s)`)
    // --json streamed NDJSON above: no closing document (oclif prints none for undefined).
    return this.jsonEnabled() ? undefined : {frames}
  }
}
