/** The network page's numbers, named once. */

/** Agents per page of the list beside the graph. */
export const NETWORK_PAGE_SIZE = 50

/** Agents read per store page when the model loads at start. */
export const MODEL_LOAD_PAGE_SIZE = 500

/** Quiet time after a change before the layout is recomputed (a burst of registrations costs one layout). */
export const LAYOUT_DEBOUNCE_MS = 250

/** The layout's square, in graph units (the browser scales it to its canvas). */
export const LAYOUT_SIZE = 1000

/** Gap between packed circles, in graph units. */
export const LAYOUT_PADDING = {root: 6, brand: 3, category: 0.6} as const

/** Results the page's search shows. */
export const SEARCH_RESULT_LIMIT = 20

/** Group names shown for agents whose card names no brand or category. */
export const NO_BRAND = 'no brand'
export const NO_CATEGORY = 'uncategorised'
