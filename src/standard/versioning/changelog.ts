/** One entry of the standard's changelog. */
export interface ChangelogEntry {
  version: number
  text: string
}

/**
 * The built-in changelog: the spec's summary table of v12–v38, oldest first.
 * Shown when the canonical changelog cannot be fetched.
 */
export const BUILTIN_CHANGELOG: readonly ChangelogEntry[] = [
  {version: 12, text: '`Agent:` and `Model:` commit trailers'},
  {version: 13, text: '`project` bucket required in cluster.yaml'},
  {version: 14, text: 'context tree (daemon py-1.12.8 or later)'},
  {version: 15, text: '`draft` task status (daemon py-1.12.11 or later)'},
  {version: 16, text: 'chat-turn queue'},
  {version: 17, text: 'network resources file'},
  {version: 18, text: 'local agent CLI instructions source and rendering'},
  {version: 19, text: 'file snapshots'},
  {version: 22, text: 'uploads, storage reporting, initiative-anchored execution'},
  {version: 33, text: 'delegation between team members (new section 28)'},
  {version: 34, text: 'member sessions and open-request ledger; `for` in reports; refusal codes'},
  {version: 35, text: '`skills[].returns` and `card_match` added (SHOULD, optional)'},
  {
    version: 36,
    text: 'every agent is general; six authored fields; `context` as the specialisation mechanism; no privileged members; `become` added; catalog derived; cards migrated in place',
  },
  {
    version: 37,
    text: 'seed is exactly one member (an architect agent with empty context); daemon migrates older rosters itself (rename, archive other seeded cards to `team/.archive/`, repoint convs); an injected boundary must be conditional on its counterpart existing',
  },
  {
    version: 38,
    text: 'seed is a base team of five (coordinating architect agent, developer, git-manager, deployer, read-only consultant with external exposure); declared `context` replaces the default set; delegate is the default verb; reports are agent-to-agent; commits by the git-manager; operator sees working teammates nested under their parent',
  },
]

/** The newest version this build of mesh knows. */
export const BUILTIN_LATEST = BUILTIN_CHANGELOG[BUILTIN_CHANGELOG.length - 1].version

/**
 * Entries of a CHANGELOG.md, headed `## v<N>` (DECISIONS); the text is what
 * follows the heading up to the next one, trimmed. Other headings are part of
 * the entry above them; text before the first entry is ignored. Oldest first.
 */
export function parseChangelog(markdown: string): ChangelogEntry[] {
  const entries: ChangelogEntry[] = []
  let current: {version: number; lines: string[]} | undefined
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^##\s+v(\d+)\b/.exec(line)
    if (heading) {
      if (current) entries.push({version: current.version, text: current.lines.join('\n').trim()})
      current = {version: Number(heading[1]), lines: []}
      const rest = line.slice(heading[0].length).replace(/^\s*[-—:–]\s*/, '').trim()
      if (rest) current.lines.push(rest)
    } else if (current) {
      current.lines.push(line)
    }
  }
  if (current) entries.push({version: current.version, text: current.lines.join('\n').trim()})
  return entries.sort((a, b) => a.version - b.version)
}

/** Entries after `installed` up to and including `target` (all newer ones when `target` is null), oldest first. */
export function entriesBetween(entries: readonly ChangelogEntry[], installed: number, target: number | null): ChangelogEntry[] {
  return entries.filter((entry) => entry.version > installed && (target === null || entry.version <= target)).sort((a, b) => a.version - b.version)
}
