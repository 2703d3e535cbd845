import type {InitAnswers} from '../answers.js'
import {CONTEXT_STEMS} from '../constants.js'

/** spec governance R6: INDEX.md is a map only — headings, links, one-line descriptions. */
export function docsIndex(): string {
  const context = CONTEXT_STEMS.map((stem) => `- [${stem[0].toUpperCase()}${stem.slice(1)}](../context/${stem}.md) — the project's ${stem} in brief.`)
  return ['# Docs index', '', '## Rules', '', '- [Governance](governance.md) — where the documentation rules live.', '', '## Context', '', ...context, ''].join('\n')
}

/** spec: governance.md is a pointer to the rules, not a copy of them (R5: link, do not copy). */
export function governancePointer(answers: InitAnswers): string {
  return `# Governance

The documentation rules R1–R6 are part of the mesh standard: ${answers.hub}/standard

\`mesh validate\` checks them.
`
}

/** A module folder's README. */
export function moduleReadme(module: {id: string; name?: string; description?: string; path?: string}): string {
  const title = module.name ?? module.id
  const lines = [`# ${title}`, '']
  if (module.description) lines.push(module.description, '')
  if (module.path) lines.push(`Code: \`${module.path}\``, '')
  lines.push(
    `- Active tasks: [tasks/](tasks/) — \`mesh task list --module ${module.id}\``,
    '- Archived tasks: `log/<YYYY-MM>/`',
    '',
  )
  return lines.join('\n')
}
