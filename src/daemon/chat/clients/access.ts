/**
 * What a member's client may do (issue 19, Access per member; docs/daemon.md,
 * Clients — access): `read` (no file edits, no shell writes), `edit` (edits
 * in the repository), `full` (the CLI's own bypass). Each level is a set of
 * the CLI's documented flags (templates.ts, `access`). The defaults follow
 * the base team; a machine sets others in its clients file (`access:
 * {developer: full}`, the user's own or a trusted project file — never a
 * tracked one, so a cloned repository cannot raise a member's level).
 *
 * A turn started by a member-token ask runs at `read`, whatever the member's
 * level: an outside caller's words never get more than reading (issue 19,
 * Asks are sandboxed). A `become` turn runs at the lower of the two members'
 * levels, so no member reaches a level by taking a teammate's profile.
 */
import type {ClientsState} from './sources.js'
import {ACCESS_LEVELS, type AccessLevel} from './templates.js'

/** issue 19: architect read, developer edit, git-manager edit, deployer edit, consultant read. */
export const DEFAULT_ACCESS: Readonly<Record<string, AccessLevel>> = {architect: 'read', developer: 'edit', 'git-manager': 'edit', deployer: 'edit', consultant: 'read'}
/** Every other member. */
export const FALLBACK_ACCESS: AccessLevel = 'read'

export const lowerAccess = (a: AccessLevel, b: AccessLevel): AccessLevel => (ACCESS_LEVELS.indexOf(a) <= ACCESS_LEVELS.indexOf(b) ? a : b)

/** A member's level on this machine, or the sentence its turns fail with. */
export function memberAccess(state: Pick<ClientsState, 'access' | 'refusedAccess'>, member: string): {level: AccessLevel} | {refused: string} {
  if (state.refusedAccess[member]) return {refused: state.refusedAccess[member]}
  return {level: state.access[member] ?? DEFAULT_ACCESS[member] ?? FALLBACK_ACCESS}
}

export interface TurnAccessInput {
  /** The conversation's member, whose client and session run the turn. */
  owner: string
  /** The profile of the turn (`become`), or the owner. */
  profile: string
  /** Whether any input of the turn came from a member-token ask. */
  ask: boolean
}

/** The level a turn runs at, or why it cannot run. */
export function turnAccess(state: Pick<ClientsState, 'access' | 'refusedAccess'>, input: TurnAccessInput): {level: AccessLevel} | {refused: string} {
  const owner = memberAccess(state, input.owner)
  if ('refused' in owner) return owner
  const profile = input.profile === input.owner ? owner : memberAccess(state, input.profile)
  if ('refused' in profile) return profile
  if (input.ask) return {level: 'read'}
  return {level: lowerAccess(owner.level, profile.level)}
}
