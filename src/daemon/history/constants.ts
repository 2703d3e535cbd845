/** The history area's names and numbers (docs/daemon-api.md, History). */

export const TIMELINE_DIR = 'timeline'
/** spec: Folder layout — `timeline/<YYYY-MM-DD>.jsonl`, one UTC day per file. */
export const TIMELINE_DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/
export const TIMELINE_DAY = /^\d{4}-\d{2}-\d{2}$/
export const TIMELINE_DEFAULT_LIMIT = 1_000
export const TIMELINE_MAX_LIMIT = 10_000
/** A line's `text` beyond this is cut (a final may hold a whole answer); the file keeps it all. */
export const TIMELINE_TEXT_KEPT = 4_000
