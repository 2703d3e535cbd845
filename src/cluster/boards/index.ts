/** Boards and posts of the cluster relay: the part, its stores and its wire shapes. */
export {createBoardsPart, type BoardsPartHandle, type BoardsPartOptions} from './part.js'
export {createMemoryBoardStore, type BoardStore} from './store.js'
export {createSqliteBoardStore, SQLITE_BOARD_MIGRATIONS} from './sqlite.js'
export {createPostgresBoardStore, POSTGRES_BOARD_MIGRATIONS} from './postgres.js'
export {DEFAULT_BOARD_LIMITS, POST_TTLS, type BoardLimits, type PostTtl} from './constants.js'
export type {BoardView, PostView, Props, Where} from './types.js'
