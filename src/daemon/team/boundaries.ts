/**
 * Boundaries the daemon adds to a member's system prompt, each naming the
 * teammate it hands work to. spec v37: "an injected boundary must be
 * conditional on its counterpart existing" — a roster without a git-manager
 * must not tell anyone that commits go through one. docs/daemon.md, Roster
 * migration — boundaries.
 */

export interface Boundary {
  /** The member id the sentence hands work to; the boundary applies only while it is on the roster. */
  counterpart: string
  sentence: string
}

/** In the order they are injected. */
export const BOUNDARIES: readonly Boundary[] = [
  // spec: Delegation 5 — with a git-manager on the team a developer reports `commit: null` plus `files`.
  {counterpart: 'git-manager', sentence: 'Commits go through the git-manager: report `commit: null` with `files`.'},
  // spec v38: the deployer releases.
  {counterpart: 'deployer', sentence: 'Releases go through the deployer: brief it instead of deploying yourself.'},
]

/**
 * The boundary sentences that apply to a roster (member ids): those whose
 * counterpart is on it. `self`, when given, is the member the prompt is for:
 * a counterpart is never told to hand work to itself.
 */
export function boundariesFor(roster: readonly string[], self?: string): string[] {
  const present = new Set(roster)
  return BOUNDARIES.filter((boundary) => present.has(boundary.counterpart) && boundary.counterpart !== self).map((boundary) => boundary.sentence)
}
