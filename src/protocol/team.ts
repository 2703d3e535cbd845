/**
 * Team-member rules the `mesh team` commands check before they call the
 * daemon (spec: Agent team member; DECISIONS: Team cards). The daemon checks
 * the same through its JSON Schemas; test/protocol/team.test.ts keeps the
 * two in step. Nothing here imports anything.
 */

/** spec: a member id, equal to the card's file-name stem. */
export const MEMBER_ID_PATTERN = /^[a-z][a-z0-9-]{1,31}$/

/** spec: `internal` (the default) or `external` (the member gets a token and a public card). */
export const MEMBER_EXPOSURES = ['internal', 'external'] as const

/** spec: effort tunes a member per instance. */
export const MEMBER_EFFORTS = ['default', 'low', 'medium', 'high', 'max'] as const

/**
 * Issue 19, Access per member: what a member's client may do — `read` (no
 * file edits, no shell writes), `edit` (edits in the repository), `full`
 * (the CLI's own bypass). Lowest first.
 */
export const MEMBER_ACCESS_LEVELS = ['read', 'edit', 'full'] as const

/** The roster's events (docs/daemon-api.md, Team): a card written, rewritten or removed by the daemon. */
export const TEAM_EVENTS = {created: 'team.created', updated: 'team.updated', deleted: 'team.deleted'} as const

/** `team.created|updated|deleted` (src/daemon/team/members.ts, the roster migration, `mesh standard migrate`). */
export interface TeamEventData {
  id: string
}
