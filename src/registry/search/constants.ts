/**
 * Numbers of the search service, named once. spec: registry "Site and search";
 * DECISIONS "Search indexes only the DiscoveryCard".
 */

/** spec: offline after 5 minutes without a token call. */
export const ONLINE_WINDOW_MS = 5 * 60_000

/** Results per query when the request names no limit, and the most it may ask for. */
export const DEFAULT_LIMIT = 10
export const MAX_LIMIT = 50

/** A search request body is small; anything bigger is a mistake or an attack. */
export const SEARCH_BODY_LIMIT_BYTES = 16 * 1024

/** BM25 saturation; per-field weight and length normalisation below. */
export const BM25_K1 = 1.2

/** The fields of an agent that are indexed, with their BM25F weight and length normalisation. */
export const SEARCH_FIELDS = [
  {name: 'name', weight: 3, b: 0.5}, // display_name + agent_id
  {name: 'tags', weight: 2, b: 0.3}, // tags / capabilities
  {name: 'category', weight: 1.5, b: 0.3}, // each dotted part
  {name: 'description', weight: 1, b: 0.75},
] as const

/**
 * Quality boosts, multiplied onto the text score: relevance decides, qualities
 * break near-ties. `online` is implied (live-only results) and so not boosted.
 */
export const BOOST = {
  operational: 0.15,
  notOperational: -0.15,
  /** Scaled by the card_match ratio n/total. */
  cardMatch: 0.05,
} as const

/** How often each node re-reads every agent from the store, healing any lost bus event. */
export const DEFAULT_RESYNC_MS = 10 * 60_000

/** Page size when loading the index from the store. */
export const LOAD_PAGE_SIZE = 500

/** Tombstones tolerated (as a share of all slots) before postings are compacted. */
export const COMPACT_DEAD_RATIO = 0.25
