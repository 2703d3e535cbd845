/**
 * The PostgreSQL schema names mesh accepts: lower-case, at most 63 bytes (the
 * server's identifier limit), so a name is safe unquoted in `CREATE SCHEMA`
 * and `search_path`. The store and the CLI's flag check share it; this file
 * imports nothing, so the CLI does not load `pg` to check a flag.
 */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/
