/** Boards and posts in PostgreSQL (migrations area `boards`); safe for several relay nodes on one database. */
import type {Migration} from '../../store/migrations.js'
import {inTransaction, migratePostgres, type PgPool} from '../../store/postgres.js'
import {slugTaken, type BoardStore} from './store.js'
import {SUMMARY_COLUMNS, toBoard, toPost, toSummary, type BoardRow, type PostRow, type PostSummaryRow} from './rows.js'

export const POSTGRES_BOARD_MIGRATIONS: Migration[] = [
  {
    area: 'boards',
    version: 1,
    sql: `
      CREATE TABLE cluster_boards (
        board_id TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL,
        slug TEXT NOT NULL,
        title TEXT NOT NULL,
        charter TEXT NOT NULL,
        props JSONB NOT NULL,
        created_ms BIGINT NOT NULL,
        UNIQUE (cluster_id, slug)
      );
      CREATE TABLE cluster_board_posts (
        post_id TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL,
        board_id TEXT NOT NULL,
        author TEXT NOT NULL,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        ttl TEXT NOT NULL,
        props JSONB NOT NULL,
        created_ms BIGINT NOT NULL,
        expires_ms BIGINT,
        delete_token_hash TEXT NOT NULL
      );
      CREATE INDEX cluster_board_posts_board ON cluster_board_posts (board_id, created_ms);
      CREATE INDEX cluster_board_posts_cluster ON cluster_board_posts (cluster_id);
      CREATE INDEX cluster_board_posts_expiry ON cluster_board_posts (expires_ms) WHERE expires_ms IS NOT NULL;
    `,
  },
]

const UNIQUE_VIOLATION = '23505'

/** A BoardStore over a pool from `openPostgres()`; call after `await` — it migrates first. */
export async function createPostgresBoardStore(pool: PgPool): Promise<BoardStore> {
  await migratePostgres(pool, POSTGRES_BOARD_MIGRATIONS)

  return {
    async insertBoard(board) {
      try {
        await pool.query(
          `INSERT INTO cluster_boards (board_id, cluster_id, slug, title, charter, props, created_ms)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [board.boardId, board.clusterId, board.slug, board.title, board.charter, JSON.stringify(board.props), board.createdAtMs],
        )
      } catch (error) {
        if ((error as {code?: string}).code === UNIQUE_VIOLATION) throw slugTaken(board.slug)
        throw error
      }
    },
    async getBoard(clusterId, idOrSlug) {
      const {rows} = await pool.query<BoardRow>('SELECT * FROM cluster_boards WHERE cluster_id = $1 AND (board_id = $2 OR slug = $2)', [clusterId, idOrSlug])
      return rows[0] ? toBoard(rows[0]) : null
    },
    async listBoards(clusterId) {
      const {rows} = await pool.query<BoardRow>('SELECT * FROM cluster_boards WHERE cluster_id = $1 ORDER BY created_ms, board_id COLLATE "C"', [clusterId])
      return rows.map(toBoard)
    },
    async deleteBoard(clusterId, boardId) {
      return inTransaction(pool, async (client) => {
        await client.query('DELETE FROM cluster_board_posts WHERE cluster_id = $1 AND board_id = $2', [clusterId, boardId])
        const {rowCount} = await client.query('DELETE FROM cluster_boards WHERE cluster_id = $1 AND board_id = $2', [clusterId, boardId])
        return (rowCount ?? 0) > 0
      })
    },
    async insertPost(post, {cap, nowMs}) {
      return inTransaction(pool, async (client) => {
        // One writer per board at a time, so two nodes cannot both keep cap + 1 posts.
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [post.boardId])
        await client.query('DELETE FROM cluster_board_posts WHERE board_id = $1 AND expires_ms IS NOT NULL AND expires_ms <= $2', [post.boardId, nowMs])
        await client.query(
          `INSERT INTO cluster_board_posts
           (post_id, cluster_id, board_id, author, title, body, ttl, props, created_ms, expires_ms, delete_token_hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [post.postId, post.clusterId, post.boardId, post.author, post.title, post.body, post.ttl,
            JSON.stringify(post.props), post.createdAtMs, post.expiresAtMs, post.deleteTokenHash],
        )
        const {rows} = await client.query<{post_id: string}>(
          `DELETE FROM cluster_board_posts WHERE post_id IN (
             SELECT post_id FROM cluster_board_posts WHERE cluster_id = $1 AND board_id = $2
             ORDER BY created_ms DESC, post_id COLLATE "C" DESC OFFSET $3) RETURNING post_id`,
          [post.clusterId, post.boardId, Math.max(0, cap)],
        )
        return rows.map((row) => row.post_id)
      })
    },
    async getPost(clusterId, postId, nowMs) {
      const {rows} = await pool.query<PostRow>(
        'SELECT * FROM cluster_board_posts WHERE cluster_id = $1 AND post_id = $2 AND (expires_ms IS NULL OR expires_ms > $3)',
        [clusterId, postId, nowMs],
      )
      return rows[0] ? toPost(rows[0]) : null
    },
    async getPosts(clusterId, postIds, nowMs) {
      if (postIds.length === 0) return []
      const {rows} = await pool.query<PostRow>(
        'SELECT * FROM cluster_board_posts WHERE cluster_id = $1 AND post_id = ANY($2) AND (expires_ms IS NULL OR expires_ms > $3)',
        [clusterId, [...new Set(postIds)], nowMs],
      )
      return rows.map(toPost)
    },
    async listPosts(clusterId, boardId, nowMs) {
      const {rows} = await pool.query<PostSummaryRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM cluster_board_posts
         WHERE cluster_id = $1 AND board_id = $2 AND (expires_ms IS NULL OR expires_ms > $3)
         ORDER BY created_ms DESC, post_id COLLATE "C" DESC`,
        [clusterId, boardId, nowMs],
      )
      return rows.map(toSummary)
    },
    async deletePost(clusterId, postId) {
      const {rowCount} = await pool.query('DELETE FROM cluster_board_posts WHERE cluster_id = $1 AND post_id = $2', [clusterId, postId])
      return (rowCount ?? 0) > 0
    },
    async deleteCluster(clusterId) {
      await inTransaction(pool, async (client) => {
        await client.query('DELETE FROM cluster_board_posts WHERE cluster_id = $1', [clusterId])
        await client.query('DELETE FROM cluster_boards WHERE cluster_id = $1', [clusterId])
      })
    },
    async purgeExpired(nowMs) {
      const {rowCount} = await pool.query('DELETE FROM cluster_board_posts WHERE expires_ms IS NOT NULL AND expires_ms <= $1', [nowMs])
      return rowCount ?? 0
    },
  }
}
