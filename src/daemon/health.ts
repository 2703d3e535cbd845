/**
 * `GET /health` and `GET /info` (spec: Endpoints; docs/daemon-api.md).
 * /health is what other commands and IDEs poll: who answers, which features,
 * which project, and the warnings an operator should see (an over-budget
 * context tree, a standard gap). Other areas add warnings through `warn`.
 */
import {FEATURES, IMPLEMENTATION} from './constants.js'
import type {DaemonContext} from './context.js'
import {measureContextTree, type ContextTreeSize} from './context-tree.js'
import type {Route} from './route-table.js'

export interface HealthSources {
  /** The address the daemon serves at, e.g. http://127.0.0.1:5570. */
  endpoint(): string
  startedAt: string
  /** Warnings other areas report (standard catch-up, git, refused clients files), read at each call. */
  warnings?: Array<() => string[] | Promise<string[]>>
  /** Fields areas add to the /health answer (e.g. `transport`), read at each call. */
  extra?: Array<() => Record<string, unknown>>
}

const CONTEXT_CACHE_MS = 2_000

export interface HealthReader {
  routes: Route[]
  /** The warnings /health answers now (also `mesh serve`'s start line). */
  warnings(): Promise<string[]>
}

export function healthRoutes(context: DaemonContext, sources: HealthSources): HealthReader {
  let cached: {at: number; size: ContextTreeSize} | undefined
  const contextTree = async () => {
    const now = context.clock()
    if (!cached || now - cached.at > CONTEXT_CACHE_MS) cached = {at: now, size: await measureContextTree(context)}
    return cached.size
  }
  const collect = async (tree: ContextTreeSize) => [
    ...(tree.over_budget ? [`context tree over budget: ${tree.words} words of ${tree.budget_words} (architect dispatch is refused until it is trimmed)`] : []),
    ...(await Promise.all((sources.warnings ?? []).map((read) => read()))).flat(),
  ]
  const routes: Route[] = [
    {
      method: 'GET',
      path: '/health',
      auth: 'none',
      async handle() {
        const tree = await contextTree()
        const warnings = await collect(tree)
        const body: Record<string, unknown> = {
          ok: true,
          implementation: IMPLEMENTATION,
          version: context.version,
          features: [...FEATURES],
          cluster_id: context.projectId(),
          tls: false,
          endpoint: sources.endpoint(),
          started_at: sources.startedAt,
          warnings,
          context_tree: {token_estimate: tree.token_estimate, words: tree.words, budget_words: tree.budget_words, over_budget: tree.over_budget},
        }
        for (const read of sources.extra ?? []) for (const [key, value] of Object.entries(read())) if (!(key in body)) body[key] = value
        return body
      },
    },
    {
      method: 'GET',
      path: '/info',
      auth: 'none',
      handle: () => ({
        implementation: IMPLEMENTATION,
        version: context.version,
        pid: process.pid,
        node: process.version,
        started_at: sources.startedAt,
        endpoint: sources.endpoint(),
        cluster_id: context.projectId(),
        paths: {
          root: context.root,
          mesh: context.meshPath(),
          runtime: context.meshPath('.runtime'),
          debug_stream: context.meshPath('.runtime', 'debug.jsonl'),
          timeline: context.meshPath('timeline'),
          snapshots: context.meshPath('snapshots'),
        },
      }),
    },
  ]
  return {routes, warnings: async () => collect(await contextTree())}
}
