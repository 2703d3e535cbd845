/**
 * Numbers of the prober, named once. spec: Discovery qualities and "Agent
 * liveness" (operational, card_match); the schedule is mesh's choice (the
 * spec says "not shown"), documented in docs/search-and-probes.md.
 */

/** Time between the end of one pass and the start of the next. */
export const DEFAULT_PROBE_INTERVAL_MS = 60_000

/** The first pass runs this soon after start, so a fresh node learns qualities quickly. */
export const DEFAULT_FIRST_PASS_DELAY_MS = 5_000

/** Agents probed at once. */
export const DEFAULT_PROBE_CONCURRENCY = 4

/** Skills of one agent probed at once. */
export const SKILL_CONCURRENCY = 4

/** Each agent waits a random 0…jitter ms before its probe, spreading load on shared hosts. */
export const DEFAULT_PROBE_JITTER_MS = 2_000

/** Per-request deadline of every probe request (card, health, skill). */
export const PROBE_REQUEST_TIMEOUT_MS = 5_000

/** Largest PublicCard or probe response read. */
export const PROBE_MAX_BYTES = 256 * 1024

/** An agent probed less than this share of an interval ago (e.g. by another node) is skipped in a pass. */
export const FRESH_PROBE_SHARE = 0.8

/** Example bodies tried per skill for card_match. */
export const MAX_EXAMPLES_PER_SKILL = 2

/** Event-triggered probes of one agent (card change, back online) are at least this far apart. */
export const EVENT_REPROBE_MIN_MS = 10_000

/** spec: offline after 5 minutes without a token call; only online agents are probed. */
export const ONLINE_WINDOW_MS = 5 * 60_000

/** Bus subject on which the prober announces a saved result: `{agent_id, at}`. Every node's search index refreshes that agent. */
export const PROBE_EVENTS_SUBJECT = 'registry.probes'

/** spec Agent side endpoints. */
export const WELL_KNOWN_CARD_PATH = '/.well-known/agent.json'
export const HEALTH_PATH = '/health'

/** Sent on every probe request, so an agent can tell probes from real traffic. */
export const PROBE_HEADER = 'x-mesh-probe'

/** Answers to `POST {}` that mean "not answering" (spec: non-404/405/5xx counts as answering). */
export const isAnsweringStatus = (status: number) => status !== 404 && status !== 405 && status < 500
