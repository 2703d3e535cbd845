/** `mesh validate`: the standard's validator, its rules and output formats. */
export {validateProject, validateLoaded, type ValidateOptions} from './validate.js'
export {RULES, ruleInfo, type RuleInfo} from './rules.js'
export type {Finding, Severity, SkippedEntry, ValidationReport, ValidationSummary} from './types.js'
export {checkCommitMessage, readCommits, validateCommits, type CommitInfo} from './commits.js'
export {formatGithub, formatHuman, formatSarif, type GithubOptions, type HumanOptions, type SarifOptions} from './format/index.js'
export {PositionIndex, type LocatableFile, type Position, type Where} from './positions.js'
