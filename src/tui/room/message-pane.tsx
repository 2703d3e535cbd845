import {Box, Text} from 'ink'
import {terminalSafe} from '../../client/cluster/text.js'
import {clockTime, deliveryMark, lineHeader, shownText, streamMark} from './format.js'
import type {RoomLine} from './room-state.js'

export interface MessagePaneProps {
  lines: RoomLine[]
  you?: string
  /** Rows available; the newest lines that fit are shown. */
  height: number
  /** Lines scrolled back from the newest (PgUp/PgDn). */
  scrollBack: number
}

/** The lines that fit in the pane, `scrollBack` lines up from the newest. */
export function visibleLines(lines: RoomLine[], height: number, scrollBack: number): RoomLine[] {
  const end = Math.max(0, lines.length - scrollBack)
  return lines.slice(Math.max(0, end - height), end)
}

const colorOf = (line: RoomLine) => (line.kind === 'error' ? 'red' : line.kind === 'notice' ? 'gray' : line.kind === 'mine' ? 'cyan' : undefined)

/**
 * Messages, newest at the bottom: time, sender (→ recipient for direct
 * messages), text, hashtag tags. A stream is one line that grows in place,
 * marked until its `done` (docs/cluster-cli.md, Streams). Everything a peer chose is made
 * terminal-safe here, where it meets the terminal.
 */
export function MessagePane({lines, you, height, scrollBack}: MessagePaneProps) {
  const shown = visibleLines(lines, height, scrollBack)
  return (
    <Box flexDirection="column" flexGrow={1} height={height} overflow="hidden" justifyContent="flex-end" paddingRight={1}>
      {shown.length === 0 ? <Text color="gray">No messages yet. The wall keeps no history: you see what is said from now on.</Text> : null}
      {shown.map((line) => {
        const direct = line.to !== null && line.to !== undefined
        const mark = deliveryMark(line)
        const streaming = streamMark(line)
        return (
          <Box key={line.id}>
            <Text wrap="wrap">
              <Text color="gray">{clockTime(line.ts)} </Text>
              <Text bold color={direct ? 'magenta' : colorOf(line)}>
                {terminalSafe(lineHeader(line, you))}
              </Text>
              {direct ? <Text color="magenta"> [direct]</Text> : null}
              <Text color={colorOf(line)}> {terminalSafe(shownText(line))}</Text>
              {streaming ? <Text color={line.stream?.state === 'incomplete' ? 'red' : 'yellow'}> [{streaming}]</Text> : null}
              {line.tags.map((tag) => (
                <Text key={tag} color="yellow">
                  {' '}#{terminalSafe(tag)}
                </Text>
              ))}
              {mark ? <Text color={mark.startsWith('✗') ? 'red' : 'gray'}> {mark}</Text> : null}
            </Text>
          </Box>
        )
      })}
    </Box>
  )
}
