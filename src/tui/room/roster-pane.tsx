import {Box, Text} from 'ink'
import type {RosterEntry} from '../../client/cluster/roster.js'
import {terminalSafe} from '../../client/cluster/text.js'

export interface RosterPaneProps {
  roster: RosterEntry[]
  width: number
  height: number
}

const fit = (text: string, width: number) => (text.length > width ? text.slice(0, Math.max(1, width - 1)) + '…' : text)

/** Who is here: you first, then online (●) and offline (○) members; duplicate handles show ×n. */
export function RosterPane({roster, width, height}: RosterPaneProps) {
  const online = roster.filter((entry) => entry.status === 'online').length
  const room = Math.max(1, height - 1)
  const shown = roster.slice(0, room)
  const hidden = roster.length - shown.length
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="single" borderTop={false} borderBottom={false} borderRight={false} paddingLeft={1} overflow="hidden">
      <Text bold>online {online}</Text>
      {shown.map((entry, index) => {
        const last = index === shown.length - 1 && hidden > 0
        const label = `${entry.status === 'online' ? '●' : '○'} ${entry.agent}${entry.sockets > 1 ? ` ×${entry.sockets}` : ''}${entry.you ? ' (you)' : ''}`
        return (
          <Text key={entry.agent} color={entry.status === 'online' ? (entry.you ? 'cyan' : 'green') : 'gray'}>
            {last ? `+${hidden + 1} more` : fit(terminalSafe(label), width - 2)}
          </Text>
        )
      })}
    </Box>
  )
}
