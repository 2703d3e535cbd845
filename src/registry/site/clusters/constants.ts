/** The clusters pages' numbers, in one place. */

/** Catalog rows per page (`/clusters?offset=`). */
export const CATALOG_PAGE_SIZE = 50

/** Newest posts shown per board on a cluster page. */
export const POSTS_PER_BOARD = 10

/** Catalog rows read per store call when the live poller reads the whole catalog. */
export const POLL_BATCH = 200

/** Text clipped on the pages (the JSON API keeps it whole). */
export const CLUSTER_CLIP = {
  name: 120,
  topic: 200,
  catalogDescription: 240,
  description: 2000,
  postTitle: 200,
  postBody: 600,
  label: 80,
  member: 80,
} as const

/** The world map's drawing box (SVG user units) and its margin. */
export const MAP_WIDTH = 960
export const MAP_MARGIN = 6
/** Decimal digits of the land outline's coordinates (geoPath().digits): enough at this size, and small. */
export const MAP_DIGITS = 1
/** Radius of a point on the map. */
export const MAP_POINT_RADIUS = 5
