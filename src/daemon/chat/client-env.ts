/**
 * The environment a turn's client runs with (issue 19, deliverable 8;
 * docs/daemon.md, Chat — a turn): the daemon's own, without
 * - `CLAUDECODE`: Claude Code sets it in every shell it runs and refuses to
 *   start inside another session when it is set, so a daemon started from a
 *   Claude Code terminal would fail every claude turn;
 * - every `MESH_*` variable: the daemon's settings (`MESH_DAEMON_DETACHED`,
 *   `MESH_MAX_TURNS`, `MESH_PORT`…) and credentials (`MESH_API_KEY`,
 *   `MESH_CLUSTER_TOKEN`, `MESH_DATABASE_URL`…) are no client's business, and
 *   a `mesh` command an agent runs must not act with them. The turn's own
 *   (`MESH_TURN_FILE`, `MESH_CONV`, `MESH_MEMBER`, `MESH_TURN_ID`,
 *   `MESH_SCRIPT_NAME`) are set afresh.
 */

/** Variables removed by name, beside the `MESH_` prefix. */
export const DROPPED_CLIENT_VARIABLES: readonly string[] = ['CLAUDECODE']
export const DROPPED_CLIENT_PREFIX = 'MESH_'

/** `base` without the dropped variables, with the turn's own over it. */
export function clientEnv(base: NodeJS.ProcessEnv, turn: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || name.startsWith(DROPPED_CLIENT_PREFIX) || DROPPED_CLIENT_VARIABLES.includes(name)) continue
    env[name] = value
  }
  return {...env, ...turn}
}
