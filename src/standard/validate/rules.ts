import type {Severity} from './types.js'

/** A validation rule: stable id, default severity, what it checks, how to fix it. */
export interface RuleInfo {
  id: string
  severity: Severity
  /** What the rule checks (one sentence). */
  summary: string
  /** How to fix a finding. */
  fix: string
  /** Where the rule comes from. */
  source: string
}

const rule = (id: string, severity: Severity, summary: string, fix: string, source: string): RuleInfo => ({id, severity, summary, fix, source})

/**
 * Every rule of `mesh validate`, in the order docs/standard.md lists them.
 * Severities follow DECISIONS "Project standard and daemon"; where it is
 * silent the choice is documented in docs/standard.md.
 */
export const RULES: readonly RuleInfo[] = [
  // Files and parsing
  rule('parse', 'error', 'The file can be read, is UTF-8, is at most 16 MB, and parses: YAML, JSON, JSON Lines, or a frontmatter block closed by `---`. A folder that cannot be listed is reported here too.', 'Fix the syntax at the reported line; save the file as UTF-8; fix the permissions.', 'spec: file formats; docs/standard.md, Files and parsing'),
  rule('schema', 'error', 'The file (or its frontmatter) matches its JSON Schema in schemas/: required keys, types, patterns, enums, lengths, no unknown keys where the spec forbids them.', 'Change the value at the reported line; the message names the key and the allowed values.', 'spec: Resources and their fields'),
  rule('frontmatter-required', 'error', 'Tasks, initiatives, runbooks, run logs, team cards and context files open with a `---` frontmatter block.', 'Add the frontmatter the schema describes.', 'spec: Task/Workflow/Team/Context'),
  rule('required-file', 'error', '`mesh.json` and `.mesh/public/cluster.yaml` exist (error); `.mesh/STANDARD_VERSION` exists (warning).', 'Run `mesh init`, or restore the file.', 'spec: Bootstrap file, cluster.yaml, Versioning'),
  rule('standard-version', 'error', '`.mesh/STANDARD_VERSION` holds one positive integer.', 'Write the installed standard version, e.g. `38`.', 'spec: Versioning 1'),
  rule('unknown-file', 'info', 'A file the standard does not define at that place (warning where the folder holds only one kind of file).', 'Move or rename it, or delete it if it is stray.', 'docs/standard.md, Files and parsing'),
  rule('id-stem', 'error', 'An initiative, team card or queue file is named after its id (`<id>.md`, `<conv>.json`).', 'Rename the file or change the id so they agree.', 'spec: Team member, Queue; docs/standard.md, Initiatives, runbooks, team'),
  // Tasks
  rule('task-location', 'error', 'Task files live only in `modules/<id>/tasks/` (active) or `modules/<id>/log/<YYYY-MM>/` (archived).', 'Move the file to one of those two places.', 'spec: Folder layout; DECISIONS: Task ids'),
  rule('task-filename', 'error', 'A task file is named `<id>-<slug>.md`: the prefix equals the frontmatter `id` (a slug that is not `^[a-z][a-z0-9-]{1,31}$` is a warning).', 'Rename the file to `<id>-<slug>.md`.', 'spec: Task file'),
  rule('task-id-strict', 'warning', 'A task id has the strict shape `^[A-Z][A-Z0-9]{0,3}\\d+$` (the looser `^[A-Za-z][A-Za-z0-9_-]{1,31}$` is accepted).', 'Prefer module prefix + number, e.g. `API12`.', 'DECISIONS: Task ids'),
  rule('task-status-alias', 'warning', 'A task status is one of the six canonical values; the six extra words are accepted with a warning.', 'Use backlog, next, active, blocked, done or draft (`mesh task move` writes canonical values).', 'DECISIONS: Task statuses'),
  rule('task-duplicate-id', 'error', 'No two task files (active or archived) share an id.', 'Give one of them a new id; archived ids are never reused.', 'DECISIONS: Task ids'),
  rule('task-category', 'error', 'A task\'s `category` is a module id of cluster.yaml.', 'Use an existing module id, or add the module to cluster.yaml.', 'spec: Task file'),
  rule('task-module-folder', 'error', 'A task\'s `category` equals the module folder it is in (exactly one module per task).', 'Move the file to `modules/<category>/` or fix `category`.', 'spec: Task file'),
  rule('task-depends', 'error', 'Every `depends_on` id is a task that exists (active or archived).', 'Fix the id or remove the dependency.', 'spec: Task file'),
  rule('task-cycle', 'error', '`depends_on` has no cycle (the message shows the cycle path).', 'Remove one dependency of the cycle.', 'spec: Task file'),
  rule('task-initiative', 'warning', 'A task\'s `initiative` and `parent_initiative` name existing initiatives.', 'Create the initiative or fix the id.', 'spec: Task file'),
  rule('task-sections', 'warning', 'An active task body has the sections `## Scope`, `## Done when`, `## Files`.', 'Add the missing section headings.', 'spec: Task file (creation bodies)'),
  // Modules and cluster
  rule('module-duplicate', 'error', 'Module ids in cluster.yaml are unique.', 'Remove or rename the duplicate entry.', 'spec: cluster.yaml'),
  rule('module-parent', 'error', 'A module\'s `parent` is another module of cluster.yaml, and following parents never leads back to where it started.', 'Fix `parent` or add the parent module.', 'spec: cluster.yaml'),
  rule('project-structure', 'error', 'v13: exactly one `project` module, kind `area`, without parent or path; `deploy`, `docs`, `design`, `general` present with `parent: project`; code modules are peers of `project` with a `path`.', 'Make modules[] follow the v13 layout (`mesh init` writes it).', 'spec: cluster.yaml, v13'),
  rule('module-folder', 'warning', 'Every folder under `.mesh/modules/` is a module of cluster.yaml.', 'Add the module to cluster.yaml or remove the folder.', 'spec: Folder layout'),
  rule('member-duplicate', 'error', 'Member ids in cluster.yaml are unique.', 'Remove the duplicate member.', 'spec: cluster.yaml'),
  rule('transport-workflow', 'error', 'cluster.yaml `transport.workflow` is `websocket` (the default): mesh serves a project\'s live channel only as a relay cluster socket; `sse` and `nats` would be skipped by every daemon, so they are refused here rather than ignored; `transport.fallback`, when set, is a ws(s) URL or a relay cluster socket.', 'Set `transport.workflow: websocket` (or remove it) and point `transport.endpoint` at a relay cluster: `mesh cluster link` writes both.', 'spec: cluster.yaml transport; docs/network.md'),
  rule('links-module', 'error', 'Every links.yaml entry names a cluster.yaml module, once.', 'Fix the id or remove the entry.', 'spec: Links registry'),
  // Initiatives, runbooks, team
  rule('initiative-modules', 'error', 'An initiative\'s `modules` are module ids of cluster.yaml.', 'Fix the ids.', 'docs/standard.md, Initiatives, runbooks, team'),
  rule('initiative-parent', 'warning', 'An initiative\'s `parent_initiative` exists and is not the initiative itself.', 'Fix the id.', 'docs/standard.md, Initiatives, runbooks, team'),
  rule('initiative-draft-active', 'warning', 'An initiative with a task in `draft` is marked `active`: a draft waits on the operator, so its initiative is not done.', 'Set the initiative back to `active`, or promote or remove the draft task.', 'spec: Dispatchability v15'),
  rule('initiative-sections', 'warning', 'An initiative body has `## Why this exists`, `## Done when`, `## Task plan`.', 'Add the missing section headings.', 'spec: Task file (creation bodies)'),
  rule('workflow-id', 'error', 'Workflows have ids `W<N>` in `workflows/`, protocols `P<N>` in `protocols/`, and the file name starts with `<id>-`.', 'Rename the file or fix the id.', 'DECISIONS: Workflow ids'),
  rule('workflow-duplicate-id', 'error', 'No two workflows (or protocols) share an id.', 'Renumber one of them.', 'spec: Workflow file'),
  rule('workflow-sections', 'warning', 'A runbook body has the sections Goal, When to apply, Inputs, Preconditions, Steps, Verification, Rollback, Related.', 'Add the missing `##` headings.', 'spec: Workflow file'),
  rule('run-log-name', 'warning', 'A run log is `log/<YYYY-MM>/<id>-<YYYY-MM-DD>-<context>.md` agreeing with its `workflow` and `date`, and names an existing runbook.', 'Rename the file or fix the frontmatter.', 'spec: Workflow file'),
  rule('team-retired-field', 'warning', 'A team card uses a field retired in v36 (accepted, dropped on the next write).', 'Remove the field; put what it said in `context` or the prose body.', 'spec: Agent team member v36'),
  // Context tree
  rule('context-required', 'warning', 'The five required context files exist: overview, product, stack, architecture, constraints.', 'Create the missing file (`mesh init` scaffolds them).', 'spec: Project context tree v14'),
  rule('context-budget', 'error', 'A required context file has at most 250 words (over 200 is a warning); glossary at most 250; each decision and criterion at most 100.', 'Shorten the file; move detail to docs/.', 'DECISIONS: Context budget'),
  rule('context-total', 'error', 'All context files together have at most 3,000 words.', 'Shorten or remove context files.', 'spec v14; DECISIONS: Context budget'),
  rule('decision-filename', 'warning', 'A decision entry is named `YYYY-MM-DD-<slug>.md`.', 'Rename the file.', 'spec: Project context tree v14'),
  // Governance
  rule('r1-category', 'warning', 'R1: a doc sits in `docs/<category>/` where `<category>` equals its frontmatter `category`.', 'Move the doc to the folder of its category.', 'spec: Governance R1; DECISIONS'),
  rule('r2-length', 'error', 'R2: a doc has at most 200 lines.', 'Split the doc by topic and link the parts.', 'spec: Governance R2, Limits'),
  rule('r3-duplicate-title', 'warning', 'R3: one topic, one canonical file — no two docs share a title.', 'Merge the two docs or retitle one.', 'spec: Governance R3; DECISIONS'),
  rule('r4-frontmatter', 'error', 'R4: every doc (except INDEX.md, README.md, governance.md) has frontmatter.', 'Add title, category, updated, owner, status.', 'spec: Governance R4'),
  rule('r5-copied-block', 'warning', 'R5: link, do not copy — the same block of 6 or more lines does not appear in two docs.', 'Keep the block in one doc and link to it from the other.', 'spec: Governance R5; DECISIONS'),
  rule('r6-index-map', 'warning', 'R6: INDEX.md is a map — only headings, links and one-line descriptions.', 'Move prose, tables and code into a doc and link it.', 'spec: Governance R6; DECISIONS'),
  // Safety
  rule('secret', 'error', 'No committed file holds a secret (API keys, tokens, private keys, bearer tokens, and the ones mesh issues: cluster join and admin tokens `ck_`/`ak_`, the registry admin key `madm_`, post delete tokens `dt_`). Deny-listed paths are not scanned.', 'Remove the secret, rotate it, and keep it in `.mesh/credentials/`. A line holding `mesh:allow-secret` is not reported.', 'spec: credentials/ (mode 0600, never committed)'),
  rule('gitignore-deny', 'error', 'Every deny-list entry is in the root `.gitignore`.', 'Add the missing line to `.gitignore` (`mesh init` writes them all).', 'spec: Deny-list; DECISIONS'),
  rule('instructions-markers', 'error', 'AGENT_INSTRUCTIONS.md keeps its preamble and operator markers, each once and in order.', 'Restore the `<!-- mesh:… -->` marker lines.', 'spec v18; DECISIONS: Markers'),
  rule('resources-marker', 'error', 'RESOURCES.md keeps its `<!-- mesh:resources:end -->` marker.', 'Restore the marker line.', 'spec v17; DECISIONS: Markers'),
  rule('queue-item-size', 'error', 'A queue item text is at most 64 KB (UTF-8 bytes).', 'Shorten the text.', 'spec: Limits'),
  // Commit messages (--commits)
  rule('commit-format', 'error', 'A commit header is `<type>(<scope>): <subject> [<task-id>]`.', 'Reword the commit (`git commit --amend` or `git rebase -i`).', 'spec: Commit conventions'),
  rule('commit-type', 'error', 'The type is one of feat, fix, docs, style, refactor, perf, test, chore, build, ci, revert.', 'Use one of those types.', 'spec: Commit conventions'),
  rule('commit-scope', 'info', 'The header carries a `(<scope>)`.', 'Add the module or area the commit touches.', 'spec: Commit conventions'),
  rule('commit-task-id', 'warning', 'The subject ends with `[<task-id>]` naming a task id.', 'Append the task the commit works on, e.g. `[API12]`.', 'spec: Commit conventions'),
  rule('commit-trailers', 'error', 'An agent commit (one with an `Agent:` trailer) also carries `Model:` and a `Co-authored-by:` line (none with `Model: none`: no model wrote it).', 'Add the missing trailer.', 'spec: Commit conventions v12'),
  rule(
    'commit-links',
    'error',
    'A commit that changes where a module deploys or its version — the `version` of its own `package.json`, a deploy config in its folder (`fly.toml`, `wrangler.toml`/`.json`/`.jsonc`, `vercel.json`, `render.yaml`), or a config file its links.yaml `prod.deploy_command` names — changes its entry in `.mesh/public/links.yaml` in the same commit.',
    'Update the module\'s links.yaml entry (`repo.version`, `prod.…`) and amend the commit (`git commit --amend`).',
    'spec: Links registry',
  ),
  rule('commit-mention', 'warning', 'A `#<id>` mention matches `^#[A-Za-z][A-Za-z0-9_-]{1,31}$`.', 'Fix the mention.', 'spec: Commit and agent conventions'),
]

const BY_ID = new Map(RULES.map((info) => [info.id, info]))

/** The rule with this id (throws on a typo, so every emitted rule is documented). */
export function ruleInfo(id: string): RuleInfo {
  const info = BY_ID.get(id)
  if (!info) throw new Error(`undocumented validation rule: ${id}`)
  return info
}
