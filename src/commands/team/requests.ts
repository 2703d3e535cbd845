import {Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {projectDirFlag} from '../../cli/project-dir.js'
import {excerpt} from '../../cli/queue-input.js'
import {printable} from '../../client/printable.js'
import type {LedgerRow, LedgerSnapshot} from '../../daemon/chat/wire.js'
import {invalid} from '../../lib/errors.js'

/** Request ids the daemon makes (delegation/constants.ts REQUEST_ID). */
const REQUEST_ID = /^dlg_[0-9a-f]{6,32}$/

const rowLine = (row: LedgerRow) =>
  `${row.request_id}  ${printable(row.requester.member)} → ${printable(row.member)}  since ${row.opened_at.slice(0, 19).replace('T', ' ')}${row.resent_at ? ' (re-sent after a restart)' : ''}  ${excerpt(row.brief)}`

export default class TeamRequests extends MeshCommand {
  static override description = `List the open delegation requests, or cancel one.

Each open request is a brief a member has not answered yet: who asked whom, since when, and the brief's first line. --cancel <id> closes one as cancelled: its requester is told, and its place in the requester's fan-out is free again. A turn already answering it goes on (\`mesh ask\` Ctrl-C or POST /chat/turns/<id>/cancel stops a turn). Needs \`mesh serve\` running in the project.`

  static override examples = ['<%= config.bin %> team requests', '<%= config.bin %> team requests --cancel dlg_3f9a0c12be45', '<%= config.bin %> team requests --json | jq -r \'.open[].request_id\'']

  static override flags = {
    dir: projectDirFlag,
    cancel: Flags.string({description: 'cancel this open request (its id, dlg_…)'}),
  }

  async run() {
    const {flags} = await this.parse(TeamRequests)
    if (flags.cancel !== undefined && !REQUEST_ID.test(flags.cancel)) throw invalid('usage_bad_request_id', `A request id looks like dlg_3f9a0c12be45; got ${JSON.stringify(flags.cancel.slice(0, 40))}`, {field: 'cancel'})
    const {connectDaemon} = await import('../../cli/daemon-session.js')
    const daemon = await connectDaemon(flags.dir)
    if (flags.cancel !== undefined) {
      const row = await daemon.call<LedgerRow>('DELETE', `/chat/requests/${flags.cancel}`)
      if (!this.jsonEnabled()) this.log(`Cancelled ${row.request_id} (${printable(row.requester.member)} → ${printable(row.member)})${row.requester.conv ? `; ${printable(row.requester.member)} is told in ${row.requester.conv}` : ''}.`)
      return row
    }
    const ledger = await daemon.call<LedgerSnapshot>('GET', '/chat/delegations')
    if (!this.jsonEnabled()) {
      if (ledger.open.length === 0) this.log('No open delegation requests.')
      else {
        this.log(`${ledger.open.length} open request(s) (fan-out limit ${ledger.limits.max_fan_out} member sessions per conversation):`)
        for (const row of ledger.open) this.log(rowLine(row))
      }
    }
    return {open: ledger.open, limits: ledger.limits}
  }
}
