/**
 * The reserved `## Resolution` section of a task file's body (spec: Task
 * file — "written by the daemon from the resolving turn's final message"):
 * the section is replaced or appended, every other byte of the body is kept.
 * Headings inside code fences are text, not sections. docs/daemon.md, Task
 * resolution.
 */
import {RESOLUTION_HEADING} from './constants.js'

const FENCE = /^ {0,3}(`{3,}|~{3,})/
const SECTION_START = /^##[ \t]+Resolution[ \t]*\r?\n?$/
/** A heading of level 1 or 2 ends a level-2 section. */
const TOP_HEADING = /^ {0,3}#{1,2}(?:[ \t]|\r?\n?$)/

/** Lines with their endings, so joining them gives the text back byte for byte. */
const linesOf = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? []

/**
 * Calls `visit` for each line with whether it lies inside a fenced code block
 * (the fence lines count as inside); `open` is the opening line (without its
 * line ending) of a block the lines leave open, else null.
 */
function walk(lines: string[], visit: (line: string, index: number, fenced: boolean) => void): {open: string | null} {
  let open: {char: string; length: number; line: string} | null = null
  lines.forEach((line, index) => {
    const fence = FENCE.exec(line)
    if (open) {
      visit(line, index, true)
      if (fence && fence[1][0] === open.char && fence[1].length >= open.length && line.slice(fence[0].length).trim() === '') open = null
    } else if (fence) {
      open = {char: fence[1][0], length: fence[1].length, line: line.replace(/\r?\n$/, '')}
      visit(line, index, true)
    } else visit(line, index, false)
  })
  return {open: (open as {line: string} | null)?.line ?? null}
}

/**
 * A final message as section content: its `#` and `##` headings become `###`
 * (so the message stays one section of the task file and adds no `## Scope`
 * of its own), and a code fence it leaves open is closed.
 */
export function asSectionContent(text: string): string {
  const lines = linesOf(text)
  const {open} = walk(lines, (line, index, fenced) => {
    if (!fenced && TOP_HEADING.test(line)) lines[index] = line.replace(/^ {0,3}#{1,2}/, '###')
  })
  const joined = lines.join('')
  return open !== null ? `${joined.replace(/\n?$/, '\n')}${open.trimStart().match(/^(`+|~+)/)![1]}` : joined
}

/**
 * The opening line of the code fence still open at `offset` of `text` (a
 * line start), or null when none is: a section cut there opens it again so
 * the rest of the block stays code.
 */
export const fenceOpenAt = (text: string, offset: number): string | null => walk(linesOf(text.slice(0, offset)), () => {}).open

/** The body's own line ending: CRLF when most of its lines end so. */
function lineEndingOf(text: string): string {
  const crlf = text.match(/\r\n/g)?.length ?? 0
  const all = text.match(/\n/g)?.length ?? 0
  return crlf * 2 > all ? '\r\n' : '\n'
}

/** The body with its `## Resolution` section holding `content` (replaced where it is, else appended at the end). */
export function withResolution(body: string, content: string): string {
  const eol = lineEndingOf(body)
  const section = `${RESOLUTION_HEADING}${eol}${eol}${content.replace(/\r?\n/g, eol).trimEnd()}${eol}`
  const lines = linesOf(body)
  let start = -1
  let end = lines.length
  walk(lines, (line, index, fenced) => {
    if (fenced) return
    if (start === -1 && SECTION_START.test(line)) start = index
    else if (start !== -1 && end === lines.length && index > start && TOP_HEADING.test(line)) end = index
  })
  if (start === -1) {
    const base = body === '' || body.endsWith('\n') ? body : `${body}${eol}`
    return `${base}${eol}${section}`
  }
  // The blank line that separated the old section from the next heading stays.
  const next = end < lines.length ? eol : ''
  return `${lines.slice(0, start).join('')}${section}${next}${lines.slice(end).join('')}`
}
