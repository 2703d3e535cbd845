import {DENY_LIST} from '../constants.js'
import {GITIGNORE_HEADER} from './constants.js'

/** `/.mesh/log/` and `.mesh/log` name the same thing for our purpose. */
const normalize = (line: string) => line.trim().replace(/^\//, '').replace(/\/$/, '')

/**
 * The .gitignore with every deny-list entry it lacks appended under one
 * header; existing lines are kept as they are. `added` is empty when nothing
 * was missing (and then `text` is the input, unchanged).
 */
export function mergeDenyList(existing: string | undefined): {text: string; added: string[]} {
  const current = existing ?? ''
  const present = new Set(current.split(/\r?\n/).map(normalize))
  const added = DENY_LIST.filter((entry) => !present.has(normalize(entry)))
  if (added.length === 0) return {text: current, added: []}
  const newline = current.includes('\r\n') ? '\r\n' : '\n'
  const block = [GITIGNORE_HEADER, ...added].join(newline) + newline
  if (current === '') return {text: block, added}
  // One blank line between the user's lines and ours.
  const ended = current.endsWith('\n') ? current : current + newline
  const spaced = ended.endsWith(newline + newline) || ended === newline ? ended : ended + newline
  return {text: spaced + block, added}
}
