/** Boards and posts in the embedded SQLite database (migrations area `boards`). */
import type {Migration} from '../../store/migrations.js'
import {migrateSqlite, type SqliteDatabase} from '../../store/sqlite.js'
import {slugTaken, type BoardStore} from './store.js'
import {SUMMARY_COLUMNS, toBoard, toPost, toSummary, type BoardRow, type PostRow, type PostSummaryRow} from './rows.js'
import type {PostRecord} from './types.js'

export const SQLITE_BOARD_MIGRATIONS: Migration[] = [
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
        props TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
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
        props TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        expires_ms INTEGER,
        delete_token_hash TEXT NOT NULL
      );
      CREATE INDEX cluster_board_posts_board ON cluster_board_posts (board_id, created_ms);
      CREATE INDEX cluster_board_posts_cluster ON cluster_board_posts (cluster_id);
      CREATE INDEX cluster_board_posts_expiry ON cluster_board_posts (expires_ms) WHERE expires_ms IS NOT NULL;
    `,
  },
]

const LIVE = '(expires_ms IS NULL OR expires_ms > @now)'

/** A BoardStore over a SQLite handle from `openSqlite()`; applies its migrations. */
export function createSqliteBoardStore(db: SqliteDatabase): BoardStore {
  migrateSqlite(db, SQLITE_BOARD_MIGRATIONS)
  const q = {
    insertBoard: db.prepare(`INSERT INTO cluster_boards (board_id, cluster_id, slug, title, charter, props, created_ms)
      VALUES (@boardId, @clusterId, @slug, @title, @charter, @props, @createdAtMs)`),
    getBoard: db.prepare('SELECT * FROM cluster_boards WHERE cluster_id = ? AND (board_id = ? OR slug = ?)'),
    listBoards: db.prepare('SELECT * FROM cluster_boards WHERE cluster_id = ? ORDER BY created_ms, board_id'),
    deleteBoard: db.prepare('DELETE FROM cluster_boards WHERE cluster_id = ? AND board_id = ?'),
    deleteBoardPosts: db.prepare('DELETE FROM cluster_board_posts WHERE cluster_id = ? AND board_id = ?'),
    dropExpiredOfBoard: db.prepare(`DELETE FROM cluster_board_posts WHERE board_id = @boardId AND NOT ${LIVE}`),
    insertPost: db.prepare(`INSERT INTO cluster_board_posts
      (post_id, cluster_id, board_id, author, title, body, ttl, props, created_ms, expires_ms, delete_token_hash)
      VALUES (@postId, @clusterId, @boardId, @author, @title, @body, @ttl, @props, @createdAtMs, @expiresAtMs, @deleteTokenHash)`),
    // Everything past the newest `cap` goes; LIMIT -1 is SQLite for "no limit".
    dropBeyondCap: db.prepare(`DELETE FROM cluster_board_posts WHERE post_id IN (
      SELECT post_id FROM cluster_board_posts WHERE cluster_id = @clusterId AND board_id = @boardId
      ORDER BY created_ms DESC, post_id DESC LIMIT -1 OFFSET @cap) RETURNING post_id`),
    getPost: db.prepare(`SELECT * FROM cluster_board_posts WHERE cluster_id = @clusterId AND post_id = @postId AND ${LIVE}`),
    listPosts: db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM cluster_board_posts
      WHERE cluster_id = @clusterId AND board_id = @boardId AND ${LIVE} ORDER BY created_ms DESC, post_id DESC`),
    deletePost: db.prepare('DELETE FROM cluster_board_posts WHERE cluster_id = ? AND post_id = ?'),
    deleteClusterBoards: db.prepare('DELETE FROM cluster_boards WHERE cluster_id = ?'),
    deleteClusterPosts: db.prepare('DELETE FROM cluster_board_posts WHERE cluster_id = ?'),
    purge: db.prepare('DELETE FROM cluster_board_posts WHERE expires_ms IS NOT NULL AND expires_ms <= ?'),
  }

  const insertPost = db.transaction((post: PostRecord, cap: number, nowMs: number): string[] => {
    q.dropExpiredOfBoard.run({boardId: post.boardId, now: nowMs})
    q.insertPost.run({...post, props: JSON.stringify(post.props)})
    const dropped = q.dropBeyondCap.all({clusterId: post.clusterId, boardId: post.boardId, cap: Math.max(0, cap)}) as Array<{post_id: string}>
    return dropped.map((row) => row.post_id)
  })
  const deleteBoard = db.transaction((clusterId: string, boardId: string) => {
    q.deleteBoardPosts.run(clusterId, boardId)
    return q.deleteBoard.run(clusterId, boardId).changes > 0
  })
  const deleteCluster = db.transaction((clusterId: string) => {
    q.deleteClusterPosts.run(clusterId)
    q.deleteClusterBoards.run(clusterId)
  })

  return {
    async insertBoard(board) {
      try {
        q.insertBoard.run({...board, props: JSON.stringify(board.props)})
      } catch (error) {
        if ((error as {code?: string}).code === 'SQLITE_CONSTRAINT_UNIQUE') throw slugTaken(board.slug)
        throw error
      }
    },
    async getBoard(clusterId, idOrSlug) {
      const row = q.getBoard.get(clusterId, idOrSlug, idOrSlug) as BoardRow | undefined
      return row ? toBoard(row) : null
    },
    async listBoards(clusterId) {
      return (q.listBoards.all(clusterId) as BoardRow[]).map(toBoard)
    },
    async deleteBoard(clusterId, boardId) {
      return deleteBoard(clusterId, boardId)
    },
    async insertPost(post, {cap, nowMs}) {
      return insertPost(post, cap, nowMs)
    },
    async getPost(clusterId, postId, nowMs) {
      const row = q.getPost.get({clusterId, postId, now: nowMs}) as PostRow | undefined
      return row ? toPost(row) : null
    },
    async getPosts(clusterId, postIds, nowMs) {
      const found: PostRecord[] = []
      for (const postId of new Set(postIds)) {
        const row = q.getPost.get({clusterId, postId, now: nowMs}) as PostRow | undefined
        if (row) found.push(toPost(row))
      }
      return found
    },
    async listPosts(clusterId, boardId, nowMs) {
      return (q.listPosts.all({clusterId, boardId, now: nowMs}) as PostSummaryRow[]).map(toSummary)
    },
    async deletePost(clusterId, postId) {
      return q.deletePost.run(clusterId, postId).changes > 0
    },
    async deleteCluster(clusterId) {
      deleteCluster(clusterId)
    },
    async purgeExpired(nowMs) {
      return q.purge.run(nowMs).changes
    },
  }
}
