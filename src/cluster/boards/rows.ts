/**
 * Database rows of boards and posts, the same columns in SQLite and
 * PostgreSQL, and their mapping to records. The two drivers differ only in
 * how values come back: SQLite gives props as JSON text and ms as numbers,
 * node-pg gives JSONB as objects and BIGINT as strings (every ms value here
 * is far below 2^53).
 */
import type {BoardRecord, PostRecord, PostSummary, Props} from './types.js'

type Ms = string | number
type PropsColumn = string | Props

export interface BoardRow {
  board_id: string
  cluster_id: string
  slug: string
  title: string
  charter: string
  props: PropsColumn
  created_ms: Ms
}

export interface PostSummaryRow {
  post_id: string
  cluster_id: string
  board_id: string
  author: string
  title: string
  ttl: PostRecord['ttl']
  props: PropsColumn
  created_ms: Ms
  expires_ms: Ms | null
}

export interface PostRow extends PostSummaryRow {
  body: string
  delete_token_hash: string
}

/** The columns of a post without its body and token hash (listings). */
export const SUMMARY_COLUMNS = 'post_id, cluster_id, board_id, author, title, ttl, props, created_ms, expires_ms'

const readProps = (column: PropsColumn): Props => (typeof column === 'string' ? (JSON.parse(column) as Props) : column)

export const toBoard = (row: BoardRow): BoardRecord => ({
  boardId: row.board_id,
  clusterId: row.cluster_id,
  slug: row.slug,
  title: row.title,
  charter: row.charter,
  props: readProps(row.props),
  createdAtMs: Number(row.created_ms),
})

export const toSummary = (row: PostSummaryRow): PostSummary => ({
  postId: row.post_id,
  clusterId: row.cluster_id,
  boardId: row.board_id,
  author: row.author,
  title: row.title,
  ttl: row.ttl,
  props: readProps(row.props),
  createdAtMs: Number(row.created_ms),
  expiresAtMs: row.expires_ms === null ? null : Number(row.expires_ms),
})

export const toPost = (row: PostRow): PostRecord => ({...toSummary(row), body: row.body, deleteTokenHash: row.delete_token_hash})
