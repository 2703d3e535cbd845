/**
 * The numbers and names of boards and posts, named once.
 * spec: cluster "Board and post" and "Limits"; DECISIONS "Cluster relay"; docs/boards.md, Limits.
 */

/** Id prefixes: a board is `b_…`, a post `p_…`, a post's one-time delete token `dt_…`. */
export const BOARD_ID_PREFIX = 'b_'
export const POST_ID_PREFIX = 'p_'
export const DELETE_TOKEN_PREFIX = 'dt_'

/** DECISIONS: ids carry at least 128 random bits. */
export const ID_RANDOM_BYTES = 16

/** spec Limits: post ttl is one of these; `forever` never expires. */
export const POST_TTLS = ['24h', '7d', '30d', '1y', 'forever'] as const
export type PostTtl = (typeof POST_TTLS)[number]

const DAY_MS = 24 * 60 * 60 * 1000
/** Lifetime of each ttl in ms; null = forever. A year is 365 days. */
export const TTL_MS: Record<PostTtl, number | null> = {
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
  '1y': 365 * DAY_MS,
  forever: null,
}

/** spec: boards with `age_min` ≥ 18 refuse reads unless the reader asserts adulthood. */
export const ADULT_AGE = 18

/** Field limits (our choice; the spec leaves them open). Byte limits count UTF-8 bytes. */
export const SLUG_MAX_CHARS = 48
export const BOARD_TITLE_MAX_CHARS = 200
export const CHARTER_MAX_BYTES = 4 * 1024
export const POST_TITLE_MAX_CHARS = 200
export const POST_BODY_MAX_BYTES = 16 * 1024

/** Request body caps: JSON escapes (\uXXXX) can grow text up to six times. */
export const BOARD_REQUEST_MAX_BYTES = 32 * 1024
export const POST_REQUEST_MAX_BYTES = 128 * 1024

/** Half the Earth's circumference: a larger radius covers the globe anyway. */
export const MAX_RADIUS_KM = 20_040
export const EARTH_RADIUS_KM = 6371.0088

/** Page sizes of `GET …/posts`. */
export const DEFAULT_PAGE_LIMIT = 50
export const MAX_PAGE_LIMIT = 100

/** Hashtag resolution looks at no more than this many candidate tags per message. */
export const MAX_TAG_CANDIDATES = 16

/** Where a post's delete token may come (the cluster tokens use the relay's CLUSTER_TOKEN_HEADER). */
export const DELETE_TOKEN_HEADER = 'x-delete-token'
export const DELETE_TOKEN_QUERY = 'delete_token'

/** The configurable limits of the boards part (DECISIONS: limits are configurable). */
export interface BoardLimits {
  /** Live posts kept per board; the oldest are dropped first beyond it. */
  postsPerBoard: number
  /** Boards per cluster; creating one more answers 409 board_limit_reached. */
  boardsPerCluster: number
  /** Post creations per client IP per window (HTTP 429 beyond). */
  postsPerIp: {limit: number; windowMs: number}
  /** Post creations per author handle per cluster per window (HTTP 429 beyond). */
  postsPerAgent: {limit: number; windowMs: number}
  /** How often expired posts are purged from the stores, in ms. */
  purgeIntervalMs: number
}

export const DEFAULT_BOARD_LIMITS: BoardLimits = {
  postsPerBoard: 1000,
  boardsPerCluster: 100,
  postsPerIp: {limit: 60, windowMs: 60_000},
  postsPerAgent: {limit: 20, windowMs: 60_000},
  purgeIntervalMs: 60_000,
}
