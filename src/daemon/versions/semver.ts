/**
 * The versions the daemon issues: plain `MAJOR.MINOR.PATCH` (semver 2.0.0
 * without pre-release or build parts). A stored version of any other shape
 * is refused rather than guessed at (docs/daemon-api.md, Versions).
 */
export const BUMPS = ['major', 'minor', 'patch'] as const
export type Bump = (typeof BUMPS)[number]

/** What a module without a stored version starts from: its first patch is 0.0.1. */
export const FIRST_VERSION = '0.0.0'

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/

/** `[major, minor, patch]`, or null when `text` is not a plain semantic version within safe integers. */
export function parseVersion(text: string): [number, number, number] | null {
  const match = SEMVER.exec(text)
  if (!match) return null
  const parts = [Number(match[1]), Number(match[2]), Number(match[3])] as [number, number, number]
  return parts.every((part) => Number.isSafeInteger(part) && part < Number.MAX_SAFE_INTEGER) ? parts : null
}

/** The next version after `current` (a valid version; see parseVersion): the bumped part + 1, the lower ones 0. */
export function bumpVersion(current: [number, number, number], bump: Bump): string {
  const [major, minor, patch] = current
  if (bump === 'major') return `${major + 1}.0.0`
  if (bump === 'minor') return `${major}.${minor + 1}.0`
  return `${major}.${minor}.${patch + 1}`
}
