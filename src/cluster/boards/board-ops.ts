/** Board reads and the admin's create/delete. Shapes: docs/boards.md. */
import {conflict, invalid} from '../../lib/errors.js'
import {assertStorableJson} from '../../lib/storable-json.js'
import {assertShaped, PROPS_SHAPES, TITLE_SHAPE} from '../schema-shapes.js'
import {openBoard, openCluster, requireAdmin} from './access.js'
import {CHARTER_MAX_BYTES} from './constants.js'
import {postStoresOf, type BoardsContext} from './context.js'
import {newBoardId} from './ids.js'
import {cleanProps} from './props.js'
import {slugify} from './slug.js'
import type {BoardView, Props} from './types.js'
import {boardView} from './views.js'

export interface BoardCreateInput {
  slug?: string
  title: string
  charter?: string
  props?: Props
}

const BOARD_SHAPES = {
  ...PROPS_SHAPES,
  slug: 'slug must be 1 to 48 lowercase letters and digits in words joined by single hyphens, e.g. lift-offers',
  title: TITLE_SHAPE,
}

/** `GET /v1/clusters/:id/boards` → `{boards, count}` (without charters). */
export async function listBoards(context: BoardsContext, clusterRef: string, token?: string) {
  const {cluster} = await openCluster(context, clusterRef, token)
  const boards = (await context.store.listBoards(cluster.cluster_id)).map((board) => boardView(cluster, board, {charter: false}))
  return {boards, count: boards.length}
}

/** `GET /v1/clusters/:id/boards/:bid` → `{board}` with charter and effective props. */
export async function getBoard(context: BoardsContext, clusterRef: string, boardRef: string, token?: string): Promise<{board: BoardView}> {
  const {cluster} = await openCluster(context, clusterRef, token)
  return {board: boardView(cluster, await openBoard(context, cluster, boardRef), {charter: true})}
}

/** `POST /v1/clusters/:id/boards` (admin) → `{board}`. */
export async function createBoard(context: BoardsContext, clusterRef: string, token: string | undefined, body: unknown): Promise<{board: BoardView}> {
  const {cluster, role} = await openCluster(context, clusterRef, token)
  requireAdmin(role)
  const input = assertShaped<BoardCreateInput>('board-create', body, BOARD_SHAPES)
  // Refused on every store alike: PostgreSQL cannot keep U+0000, and a lone surrogate would come back altered.
  assertStorableJson(input)
  const charter = input.charter ?? ''
  if (Buffer.byteLength(charter, 'utf8') > CHARTER_MAX_BYTES) {
    throw invalid('field_too_long', `charter is over ${CHARTER_MAX_BYTES} bytes of UTF-8`, {field: 'charter'})
  }
  const slug = input.slug ?? slugify(input.title)
  if (!slug) throw invalid('invalid_slug', 'The title has no letters or digits to make a slug from; give a slug', {field: 'slug'})
  const existing = await context.store.listBoards(cluster.cluster_id)
  if (existing.length >= context.limits.boardsPerCluster) {
    throw conflict('board_limit_reached', `This cluster already has ${existing.length} boards, the most allowed`)
  }
  const board = {
    boardId: newBoardId(),
    clusterId: cluster.cluster_id,
    slug,
    title: input.title.trim(),
    charter,
    props: cleanProps(input.props),
    createdAtMs: context.clock(),
  }
  await context.store.insertBoard(board)
  context.logger.info('board created', {cluster_id: cluster.cluster_id, board_id: board.boardId, slug})
  return {board: boardView(cluster, board, {charter: true})}
}

/** `DELETE /v1/clusters/:id/boards/:bid` (admin) → `{ok, board_id}`; its posts go with it. */
export async function deleteBoard(context: BoardsContext, clusterRef: string, boardRef: string, token?: string) {
  const {cluster, role} = await openCluster(context, clusterRef, token)
  requireAdmin(role)
  const board = await openBoard(context, cluster, boardRef)
  for (const store of postStoresOf(context)) await store.deleteBoard(cluster.cluster_id, board.boardId)
  context.logger.info('board deleted', {cluster_id: cluster.cluster_id, board_id: board.boardId})
  return {ok: true as const, board_id: board.boardId}
}
