import {Box, Text} from 'ink'
import type {ConnectionStatus} from '../../client/cluster/connection.js'
import {terminalSafe} from '../../client/cluster/text.js'
import {statusText} from './format.js'

const COLOR: Record<ConnectionStatus['state'], string> = {idle: 'yellow', connecting: 'yellow', connected: 'green', reconnecting: 'yellow', gone: 'red', failed: 'red', closed: 'gray'}

/** One line under the input: connection state, countdown, last error, scroll position. */
export function StatusLine({status, online, nowMs, clusterId, scrollBack}: {status: ConnectionStatus; online: number; nowMs: number; clusterId: string; scrollBack: number}) {
  return (
    <Box>
      <Text color={COLOR[status.state]} wrap="truncate-end">
        {terminalSafe(statusText(status, online, nowMs))}
      </Text>
      <Text color="gray" wrap="truncate-end">
        {' '}· {terminalSafe(clusterId)}
        {scrollBack > 0 ? ` · ${scrollBack} newer below (PgDn)` : ' · PgUp scrolls'}
      </Text>
    </Box>
  )
}
