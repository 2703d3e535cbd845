import {userInfo} from 'node:os'
import {Args, Flags} from '@oclif/core'
import {EXIT, MeshCommand} from '../../cli/base-command.js'
import {canPrompt} from '../../cli/tty.js'
import {createClusterClient, type MemberVisibility} from '../../client/cluster/client.js'
import {DEFAULT_RELAY_URL, RELAY_ENV} from '../../client/cluster/constants.js'
import type {PipeEnd} from '../../client/cluster/pipe.js'

/** Handle used when neither --agent nor MESH_AGENT is given: the login name. */
function defaultHandle(): string {
  try {
    return userInfo().username || 'anon'
  } catch {
    return 'anon'
  }
}

export default class ClusterJoin extends MeshCommand {
  static override description = `Join a cluster's live wall.

On a terminal: a room view with messages, the roster and an input line (/msg <handle> <text> for a direct message, /quit to leave).
Otherwise, or with --json: pipe mode. Each stdin line is sent (a JSON object {"payload": …} or {"to": "<handle>", "payload": …}, "/msg <handle> <text>", or plain text to broadcast) and every server frame is printed as one NDJSON line on stdout. Status goes to stderr.

Text over 64 KB (one line, up to 1 MiB) is sent as stream chunks. The room view shows an incoming stream as one growing message; in pipe mode chunks are printed as they come, or with --assemble-streams as one message per stream.

The connection reconnects with exponential backoff on every close except a deleted cluster. Exit codes: 0 when stdin ends (after the last sends are acknowledged), on /quit, or when the cluster is deleted; 1 when the relay refuses the connection (401 wrong token, 404 unknown cluster) or cannot be reached.`

  static override examples = [
    '<%= config.bin %> cluster join c_3kT9… --token ck_… --agent ada',
    '<%= config.bin %> cluster join berlin-agents --agent ada --vis ghost',
    `echo '{"to":"bob","payload":"hi"}' | <%= config.bin %> cluster join c_3kT9… --token ck_… --agent ada --json`,
    'tail -f requests.txt | <%= config.bin %> cluster join c_3kT9… --token ck_… --agent bot --json --assemble-streams > messages.ndjson',
  ]

  static override args = {
    cluster: Args.string({description: 'cluster id (c_…), or the slug of a public cluster', required: true}),
  }

  static override flags = {
    relay: Flags.string({description: `relay base URL (default ${DEFAULT_RELAY_URL})`, env: RELAY_ENV}),
    token: Flags.string({description: 'join token (ck_…); needed for private clusters', env: 'MESH_CLUSTER_TOKEN'}),
    agent: Flags.string({description: 'your handle in the room (default: your login name)', env: 'MESH_AGENT'}),
    did: Flags.string({description: 'your did:key, echoed to peers (not verified)'}),
    vis: Flags.string({description: 'public: shown; private: masked outside the room; ghost: invisible, not announced', options: ['public', 'private', 'ghost']}),
    'assemble-streams': Flags.boolean({description: 'pipe mode: print one assembled message per stream (when it ends) instead of every chunk'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(ClusterJoin)
    const client = createClusterClient({relay: flags.relay})
    const agent = flags.agent ?? defaultHandle()
    const clusterId = await client.resolveClusterId(args.cluster)
    const connection = client.connection(clusterId, {agent, token: flags.token, did: flags.did, vis: flags.vis as MemberVisibility | undefined})

    if (canPrompt() && !this.jsonEnabled()) {
      const {runRoom} = await import('../../tui/room/run-room.js')
      const end = await runRoom({connection, clusterId, agent, relay: client.relay})
      if (end.reason === 'fatal') throw end.error
      return
    }

    const {runPipe} = await import('../../client/cluster/pipe.js')
    const stop = () => {
      connection.close()
      process.exit(EXIT.ok)
    }
    process.once('SIGINT', stop).once('SIGTERM', stop)
    const end: PipeEnd = await runPipe({connection, input: process.stdin, output: process.stdout, notices: process.stderr, assembleStreams: flags['assemble-streams']})
    process.off('SIGINT', stop).off('SIGTERM', stop)
    if (end.reason === 'fatal') {
      if (!this.jsonEnabled()) throw end.error
      // stdout is NDJSON here: the error is one compact line, not oclif's pretty JSON.
      process.stdout.write(JSON.stringify({error: {code: end.error.code, message: end.error.message}}) + '\n')
      process.exitCode = EXIT.failure
      return
    }
    if (end.reason === 'gone') process.stderr.write(`cluster ${clusterId} was deleted\n`)
  }
}
