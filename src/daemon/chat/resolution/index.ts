/** Task resolution and agent commits (docs/daemon.md, Task resolution and Agent commits): the chat engine's first final hook. */
export {locateAnchor, mentionsOf, parseAnchor, type LocateInput} from './anchor.js'
export {commitForMember, commitPathsOf, type MemberCommitInput} from './agent-commit.js'
export {coAuthorLine, CONVENTIONAL_SUBJECT, memberCommitMessage, memberSubject} from './commit-message.js'
export * from './constants.js'
export {mayCommit, resolutionHook} from './hook.js'
export {reportOf, resolutionContent, resolveTask, taskToResolve, type ResolveOutcome, type ResolveSkip} from './resolve.js'
