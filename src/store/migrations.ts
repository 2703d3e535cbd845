/**
 * A migration is an ordered, named step of DDL for one area (registry,
 * cluster, ...). Each backend records applied steps in `mesh_migrations`
 * so every area migrates on its own and nodes can start at once.
 */
export interface Migration {
  /** Area the step belongs to, e.g. "registry". */
  area: string
  /** Strictly increasing within an area. */
  version: number
  /** DDL statements for this backend. */
  sql: string
}
