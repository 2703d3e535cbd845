/**
 * `mesh team watch` on a terminal: the team, the convs at work as a tree
 * (member sessions under the conv that briefed them), open requests and the
 * latest endings, kept up to date from the daemon's events. `q` or Ctrl-C
 * quits.
 */
import {Box, Text, useInput} from 'ink'
import {useEffect, useReducer} from 'react'
import {terminalSafe} from '../../client/cluster/text.js'
import {noticeLine, requestLine, STATUS_COLOUR, STATUS_MARK, treeLines} from './format.js'
import {initialTeamState, memberStatus, teamReducer, workTree, type TeamAction} from './state.js'

export interface TeamSource {
  /** Subscribes to state actions (snapshot, events, members, connection); returns the unsubscribe function. */
  subscribe(listener: (action: TeamAction) => void): () => void
}

export interface TeamAppProps {
  source: TeamSource
  title: string
  onExit(): void
}

export function TeamApp({source, title, onExit}: TeamAppProps) {
  const [state, dispatch] = useReducer(teamReducer, undefined, initialTeamState)
  useEffect(() => source.subscribe(dispatch), [source])
  useInput((input, key) => {
    if (input === 'q' || (key.ctrl && input === 'c')) onExit()
  })

  const tree = treeLines(workTree(state))
  const width = Math.max(8, ...state.members.map((member) => member.id.length))
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{title}</Text>
        <Text color={state.connected ? 'green' : 'yellow'}>{state.connected ? ' ● live' : ` ○ ${state.reason ? terminalSafe(state.reason) : 'connecting'}…`}</Text>
      </Text>
      <Text bold>Team</Text>
      {!state.ready ? <Text dimColor> reading the team…</Text> : state.members.length === 0 ? <Text dimColor> no members yet (`mesh team add`)</Text> : null}
      {state.members.map((member) => {
        const status = memberStatus(state, member.id)
        return (
          <Text key={member.id} wrap="truncate-end">
            {' '}
            <Text color={STATUS_COLOUR[status]}>{STATUS_MARK[status]}</Text> <Text bold>{member.id.padEnd(width)}</Text> <Text dimColor>{status.padEnd(7)}</Text> {terminalSafe(member.title ?? '')}
            {member.problem ? <Text color="red"> ! {terminalSafe(member.problem)}</Text> : null}
          </Text>
        )
      })}
      <Text bold>At work</Text>
      {state.ready && tree.length === 0 ? <Text dimColor> nothing running</Text> : null}
      {tree.map((line) => (
        <Text key={line.conv} wrap="truncate-end">
          {' '}
          {line.indent}
          <Text bold color={line.live ? 'green' : undefined}>
            {line.member}
          </Text>{' '}
          <Text dimColor>{line.conv}</Text> {line.state}
        </Text>
      ))}
      {state.requests.length > 0 ? <Text bold>Open requests ({state.requests.length})</Text> : null}
      {state.requests.map((row) => (
        <Text key={row.request_id} wrap="truncate-end">
          {' '}
          {requestLine(row)}
        </Text>
      ))}
      {state.notices.length > 0 ? <Text bold>Recent</Text> : null}
      {state.notices.map((notice, index) => (
        <Text key={`${notice.ts}-${index}`} dimColor wrap="truncate-end">
          {' '}
          {noticeLine(notice)}
        </Text>
      ))}
      <Text dimColor>q quit</Text>
    </Box>
  )
}
