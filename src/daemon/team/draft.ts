/**
 * `POST /team/draft`: free text → a member draft, by fixed rules and no
 * model, so the same text always gives the same draft (docs/daemon.md, Team
 * — draft rules). Nothing is written.
 */
import {kebabCase} from '../../lib/kebab-case.js'
import type {Exposure} from './cards.js'

export interface MemberDraft {
  id: string
  title: string
  context: string[]
  exposure: Exposure
  prompt: string
}

const TITLE_LINE = /^\s*title\s*:\s*(.+?)\s*$/im
const ID_LINE = /^\s*id\s*:\s*(\S+)\s*$/im
const EXPOSURE_WORD = /\b(?:external|externally|exposed|expose)\b/gi
/** Words that keep a member inside: "internal only", "keep it internal". */
const INTERNAL_WORD = /\b(?:internal|internally)\b/i
/** A negation close before an exposure word turns it around: "never expose", "do not expose", "not exposed". */
const NEGATION = /\b(?:never|not|no|nor|neither|without|cannot)\b|n't\b/i
/** How far back a negation reaches: a few words, within the same clause. */
const NEGATION_WORDS = 4
const CLAUSE_END = /[.;:!?,\n]|\bbut\b/gi

/**
 * External only when the text asks for it and nothing says otherwise (issue
 * 19: "never expose" made a member external): an exposure word not negated
 * in its clause, and no "internal" anywhere. In doubt, internal — exposing
 * hands out a token.
 */
function exposureOf(text: string): Exposure {
  if (INTERNAL_WORD.test(text)) return 'internal'
  let asked = false
  for (const match of text.matchAll(EXPOSURE_WORD)) {
    const before = text.slice(0, match.index)
    const clause = before.slice(Math.max(0, ...[...before.matchAll(CLAUSE_END)].map((end) => end.index + end[0].length)))
    const words = clause.trim().split(/\s+/).slice(-NEGATION_WORDS).join(' ')
    if (NEGATION.test(words)) return 'internal'
    asked = true
  }
  return asked ? 'external' : 'internal'
}
const TITLE_MAX = 80
const ID_MAX = 32

/** The first sentence of the first non-empty line: up to `.`, `!` or `?` followed by a space or the end. */
function firstSentence(text: string): string {
  const line = text.split(/\r?\n/).find((candidate) => candidate.trim() !== '') ?? ''
  const match = /^(.*?[.!?])(\s|$)/.exec(line.trim())
  return (match ? match[1].slice(0, -1) : line.trim()).trim()
}

/** A member id from a title: kebab-case, at most 32 characters, starting with a letter ("m-" before a digit). */
export function idFromTitle(title: string): string {
  let id = kebabCase(title)
  if (/^[0-9]/.test(id)) id = `m-${id}`
  id = id.slice(0, ID_MAX).replace(/-+$/, '')
  return id.length >= 2 ? id : 'member'
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * `contextIds` are the stems of the project's `.mesh/context/*.md`; those the
 * text names as whole words (case-insensitive) become the draft's context, in
 * the tree's order.
 */
export function draftMember(text: string, contextIds: readonly string[]): MemberDraft {
  const titleLine = TITLE_LINE.exec(text)
  const idLine = ID_LINE.exec(text)
  const title = (titleLine ? titleLine[1] : firstSentence(text)).slice(0, TITLE_MAX).trim() || 'New member'
  const givenId = idLine?.[1].toLowerCase()
  const id = givenId && /^[a-z][a-z0-9-]{1,31}$/.test(givenId) ? givenId : idFromTitle(title)
  const rest = text.replace(TITLE_LINE, '').replace(ID_LINE, '')
  const context = contextIds.filter((stem) => new RegExp(`(^|[^a-z0-9-])${escapeRegExp(stem)}($|[^a-z0-9-])`, 'i').test(text))
  const prompt = rest.trim()
  return {id, title, context, exposure: exposureOf(text), prompt: prompt === '' ? '' : `${prompt}\n`}
}
