/** The clusters pages' numbers, in one place. */

/** Catalog rows per page (`/clusters?offset=`). */
export const CATALOG_PAGE_SIZE = 50

/**
 * A cluster page's budget, so that it stays under 200 KB even at the
 * relay's limits (100 boards, 1000 members) with text that escapes to six
 * times its length: newest posts per board, posts on the whole page
 * (shared among the boards), boards shown in full (the rest by name),
 * members listed.
 */
export const POSTS_PER_BOARD = 10
export const POSTS_ON_PAGE = 24
export const BOARDS_IN_FULL = 30
export const MEMBERS_SHOWN = 50

/** Catalog rows read per store call when the live poller reads the whole catalog. */
export const POLL_BATCH = 200

/** Text clipped on the pages (the JSON API keeps it whole). */
export const CLUSTER_CLIP = {
  name: 120,
  topic: 200,
  catalogDescription: 240,
  description: 2000,
  boardTitle: 100,
  postTitle: 160,
  postBody: 320,
  label: 60,
  /** Each half of a map point's label (title — place); it is written twice (link name and tooltip). */
  mapLabel: 40,
  member: 64,
} as const

/** The world map's drawing box (SVG user units) and its margin. */
export const MAP_WIDTH = 960
export const MAP_MARGIN = 6
/** Decimal digits of the land outline's coordinates (geoPath().digits): enough at this size, and small. */
export const MAP_DIGITS = 1
/** Radius of a point on the map. */
export const MAP_POINT_RADIUS = 5
