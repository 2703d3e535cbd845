/**
 * Task resolution and agent commits: the numbers and names of
 * src/daemon/chat/resolution/ (docs/daemon.md, Task resolution and Agent
 * commits). The spec fixes the fields and the trailers; the sizes and the
 * address are our choice.
 */

/** Debug stream tag of everything resolution and agent commits report. */
export const RESOLUTION_TAG = 'chat.resolution'

/** A `## Resolution` section holds at most this many bytes (UTF-8) of the final message; the middle is cut with a note. */
export const RESOLUTION_MAX_BYTES = 8 * 1024
/** Of those, the start of a long message; the rest is its end, where its summary is (issue 19). */
export const RESOLUTION_HEAD_BYTES = 2 * 1024

/** The reserved body section (spec: Task file). */
export const RESOLUTION_HEADING = '## Resolution'

/** The base team's member that makes the team's commits (DECISIONS: Base team; spec: Commit and agent conventions). */
export const GIT_MANAGER = 'git-manager'

/**
 * The co-author's address domain. `.invalid` is reserved (RFC 2606) and can
 * never be delivered to, so no real inbox or GitHub account is ever named by
 * a member's commits.
 */
export const AGENT_EMAIL_DOMAIN = 'agents.mesh.invalid'

/** Events (docs/daemon-api.md, Chat); `task.completed` is src/protocol/tasks.ts's. */
export const COMMIT_CREATED_EVENT = 'commit.created'
