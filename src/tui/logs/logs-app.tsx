/**
 * `mesh daemon logs --follow` on a terminal: the newest events that fit,
 * coloured by level, with the filters in a header line. `l` cycles the
 * minimum level, `t` sets the tag filter (comma list, Enter applies, Esc
 * cancels), `c` clears both, `q` or Ctrl-C quits. Filters apply to what is
 * already on screen too.
 */
import {Box, Text, useInput, useStdout} from 'ink'
import {useEffect, useRef, useState} from 'react'
import type {DebugLine} from '../../client/daemon/follow-debug.js'
import {LEVEL_COLOUR, LEVELS, lineParts, passes, type Level} from './format.js'

/** Events kept for the view; older ones scroll out for good. */
export const MAX_KEPT = 2_000

export interface LogsSource {
  /** Subscribes to batches of new events and connection changes; returns the unsubscribe function. */
  subscribe(listener: {events(events: DebugLine[]): void; state(connected: boolean): void}): () => void
}

export interface LogsAppProps {
  source: LogsSource
  title: string
  initialLevel?: Level
  initialTags?: string[]
  onExit(): void
}

export function LogsApp({source, title, initialLevel = 'debug', initialTags = [], onExit}: LogsAppProps) {
  const [events, setEvents] = useState<DebugLine[]>([])
  const [connected, setConnected] = useState(true)
  const [level, setLevel] = useState<Level>(initialLevel)
  const [tags, setTags] = useState<string[]>(initialTags)
  const [editing, setEditingState] = useState<string | null>(null)
  // Keys can arrive faster than renders: the handler reads the latest text from here, not from the last render.
  const editingRef = useRef<string | null>(null)
  const setEditing = (text: string | null) => {
    editingRef.current = text
    setEditingState(text)
  }
  const {stdout} = useStdout()
  const rows = Math.max(3, (stdout?.rows ?? 24) - 3)

  useEffect(
    () =>
      source.subscribe({
        events: (batch) => setEvents((kept) => [...kept, ...batch].slice(-MAX_KEPT)),
        state: setConnected,
      }),
    [source],
  )

  useInput((input, key) => {
    const text = editingRef.current
    if (text !== null) {
      if (key.return) {
        setTags(text.split(',').map((t) => t.trim()).filter(Boolean))
        setEditing(null)
      } else if (key.escape) setEditing(null)
      else if (key.backspace || key.delete) setEditing(text.slice(0, -1))
      else if (input && !key.ctrl && !key.meta) setEditing(text + input)
      return
    }
    if (input === 'q' || (key.ctrl && input === 'c')) onExit()
    else if (input === 'l') setLevel((current) => LEVELS[(LEVELS.indexOf(current) + 1) % LEVELS.length])
    else if (input === 't') setEditing('')
    else if (input === 'c') {
      setLevel('debug')
      setTags([])
    }
  })

  const shown = events.filter((event) => passes(event, level, tags)).slice(-rows)
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{title}</Text>
        <Text color={connected ? 'green' : 'yellow'}>{connected ? ' ● live' : ' ○ waiting for the daemon'}</Text>
        <Text dimColor>
          {' '}level ≥ {level} · tags {tags.length ? tags.join(',') : 'all'} · {shown.length}/{events.length}
        </Text>
      </Text>
      {shown.map((event, index) => {
        const parts = lineParts(event)
        return (
          <Text key={`${event.ts}-${index}`} wrap="truncate-end">
            <Text dimColor>{parts.time}</Text> <Text color={LEVEL_COLOUR[event.lvl] ?? 'gray'}>{parts.level}</Text> <Text bold>{parts.tag}</Text> {parts.text}
          </Text>
        )
      })}
      <Text dimColor>{editing !== null ? `tags (comma list, Enter applies, Esc cancels): ${editing}▌` : 'l level · t tags · c clear · q quit'}</Text>
    </Box>
  )
}
