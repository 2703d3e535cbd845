/**
 * Flag parsing and plain-text rendering shared by `mesh cluster boards`,
 * `mesh cluster post` and `mesh cluster posts` (the commands stay thin).
 */
import {invalid} from '../../lib/errors.js'
import type {Board, BoardProps, Post} from './boards-client.js'
import {table, terminalSafe} from './text.js'

export {table} from './text.js'

/** `--where "<lat>,<lon>[,<label>]"` → a where point; the label may hold commas. */
export function parseWhereFlag(text: string): NonNullable<BoardProps['where']> {
  const [latText, lonText, ...label] = text.split(',')
  const lat = Number(latText?.trim())
  const lon = Number(lonText?.trim())
  if (latText?.trim() === '' || lonText === undefined || lonText.trim() === '' || !Number.isFinite(lat) || !Number.isFinite(lon)) {
    throw invalid('usage_where', `--where must be "<lat>,<lon>[,<label>]", e.g. "52.52,13.405,Berlin"; got "${text}"`, {field: 'where'})
  }
  const name = label.join(',').trim()
  return name ? {lat, lon, label: name} : {lat, lon}
}

/** Props from `--props-json`, then `--where`, `--lang`, `--age-min` on top. */
export function propsFromFlags(flags: {where?: string; lang?: string; 'age-min'?: number; 'props-json'?: string}): BoardProps | undefined {
  let props: BoardProps = {}
  if (flags['props-json'] !== undefined) {
    let value: unknown
    try {
      value = JSON.parse(flags['props-json'])
    } catch {
      throw invalid('usage_props_json', '--props-json must be valid JSON, e.g. {"lang":"en"}', {field: 'props'})
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('usage_props_json', '--props-json must be a JSON object', {field: 'props'})
    props = value as BoardProps
  }
  if (flags.where !== undefined) props.where = parseWhereFlag(flags.where)
  if (flags.lang !== undefined) props.lang = flags.lang
  if (flags['age-min'] !== undefined) props.age_min = flags['age-min']
  return Object.keys(props).length > 0 ? props : undefined
}

/** `Paris (48.8566, 2.3522)`, `en`, `18+` … in one short line. */
export function describeProps(props: BoardProps): string {
  const parts: string[] = []
  if (props.where) parts.push(`${props.where.label ? props.where.label + ' ' : ''}(${props.where.lat}, ${props.where.lon})`)
  if (props.lang) parts.push(props.lang)
  if (props.age_min !== undefined) parts.push(`${props.age_min}+`)
  return parts.join(' · ')
}

export function boardTable(boards: Board[]): string[] {
  return table([['SLUG', 'TITLE', 'PROPS', 'ID'], ...boards.map((b) => [b.slug, b.title, describeProps(b.effective_props) + (b.age_gated ? ' (adults only)' : ''), b.board_id])])
}

/** Multi-line text (a charter, a post body) as indented terminal-safe lines. */
const indented = (text: string) => text.split(/\r?\n/).map((line) => `  ${terminalSafe(line)}`)

export function boardDetails(board: Board): string[] {
  const lines = [
    `board      ${board.slug}  (${board.board_id})`,
    `title      ${board.title}`,
    `props      ${describeProps(board.effective_props) || '-'}${board.age_gated ? '  — adults only: read posts with --adult' : ''}`,
    `created    ${board.created_at}`,
  ].map(terminalSafe)
  if (board.charter) lines.push('charter', ...indented(board.charter))
  return lines
}

export function postBlock(post: Post): string[] {
  const facts = [post.author, post.created_at, post.expires_at ? `expires ${post.expires_at}` : 'never expires']
  if (post.distance_km !== undefined) facts.push(`${post.distance_km} km`)
  const props = describeProps(post.effective_props)
  if (props) facts.push(props)
  return [terminalSafe(`${post.post_id}  ${post.title}`), `  ${terminalSafe(facts.join(' · '))}`, ...(post.body ? indented(post.body) : [])]
}
