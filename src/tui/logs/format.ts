/** One debug event as a terminal line: `12:00:03.120 INFO  boot  daemon serving …`, safe to print. */
import {printable} from '../../client/printable.js'
import type {DebugLine} from '../../client/daemon/follow-debug.js'

export const LEVELS = ['debug', 'info', 'warn', 'error'] as const
export type Level = (typeof LEVELS)[number]

export const LEVEL_COLOUR: Record<Level, string> = {debug: 'gray', info: 'cyan', warn: 'yellow', error: 'red'}
const ANSI: Record<Level, string> = {debug: '\x1b[90m', info: '\x1b[36m', warn: '\x1b[33m', error: '\x1b[31m'}

export const levelRank = (level: string) => Math.max(0, LEVELS.indexOf(level as Level))

/** Whether the event passes a minimum level and a tag list (a tag also matches its dotted sub-namespaces). */
export function passes(event: DebugLine, minimum: Level, tags: string[]): boolean {
  if (levelRank(event.lvl) < levelRank(minimum)) return false
  return tags.length === 0 || tags.some((tag) => event.tag === tag || event.tag.startsWith(tag + '.'))
}

export function lineParts(event: DebugLine) {
  const time = event.ts.slice(11, 23)
  const who = [event.src !== 'daemon' ? event.src : '', event.agent_id ?? '', event.conv ? `conv ${event.conv}` : ''].filter(Boolean).join(' · ')
  const data = event.data && Object.keys(event.data).length > 0 ? ' ' + JSON.stringify(event.data) : ''
  return {time, level: event.lvl.toUpperCase().padEnd(5), tag: printable(event.tag), text: printable(`${who ? `[${who}] ` : ''}${event.msg}${data}`)}
}

/** A plain line, with ANSI colour when `colour` is set (a terminal without the Ink view, e.g. no --follow). */
export function formatLine(event: DebugLine, colour: boolean): string {
  const {time, level, tag, text} = lineParts(event)
  const lvl = levelRank(event.lvl) >= 0 ? (event.lvl as Level) : 'debug'
  return colour ? `\x1b[90m${time}\x1b[0m ${ANSI[lvl]}${level}\x1b[0m \x1b[1m${tag}\x1b[0m ${text}` : `${time} ${level} ${tag} ${text}`
}
