/**
 * What a session's first turn is told (spec: Agent team member; Delegation
 * 6; v36–v38): the member's body as its system prompt, its context slice,
 * the teammate catalog derived from the live roster, and how to speak to
 * the daemon (markers, anchors). Later turns carry only their text.
 */
import type {MemberCard, MemberSummary} from '../team/cards.js'
import {DEPLOYER} from './constants.js'
import type {ContextFile} from './context-slice.js'
import {GIT_MANAGER} from './resolution/constants.js'
import type {TurnAnchor} from './types.js'

/** The first sentence of a prompt, for the catalog (at most 200 characters). */
export function firstSentence(prompt: string): string {
  const flat = prompt.replace(/\s+/g, ' ').trim()
  const end = flat.search(/[.!?](\s|$)/)
  const sentence = end === -1 ? flat : flat.slice(0, end + 1)
  return sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence
}

export interface CatalogEntry {
  id: string
  title: string
  summary: string
  context: string[]
}

/** Every other member with a sound card (spec Delegation 6: id, title, first sentence, context slice). */
export function teammateCatalog(self: string, roster: Array<MemberSummary & {prompt?: string}>): CatalogEntry[] {
  return roster
    .filter((member) => member.id !== self && member.problem === null)
    .map((member) => ({id: member.id, title: member.title ?? member.id, summary: firstSentence(member.prompt ?? ''), context: member.context}))
}

function catalogText(catalog: CatalogEntry[]): string {
  if (catalog.length === 0) return '## Teammates\n\nThe catalog is empty: you are the only member of this team, so there is no one to delegate to.'
  const lines = catalog.map((entry) => `- \`${entry.id}\` — ${entry.title}: ${entry.summary}${entry.context.length > 0 ? ` (context: ${entry.context.join(', ')})` : ''}`)
  return `## Teammates\n\n${lines.join('\n')}`
}

/** A marker exactly as the daemon's parser reads it (markers.ts): the fence, `mesh-<kind>`, a JSON object, the fence. */
const markerBlock = (kind: string, example: string) => `\`\`\`mesh-${kind}\n${example}\n\`\`\``

/**
 * How to speak to the daemon. Each marker is shown as a block of its own in
 * the form markers.ts parses (issue 19: an example the parser would not
 * read teaches the agent to write markers nobody acts on); the commit marker
 * only to whoever may use it (resolution/hook.ts `mayCommit`).
 */
function protocolText(commits: boolean, deployer: boolean): string {
  const parts = [
    `## Working with the daemon

Start your answer with the line \`→ working on #<initiative> · #<task>\`. If the request names none, first locate the task it belongs to (\`mesh task list\`) or create it (\`mesh initiative create\`, \`mesh task create\`).

Each marker below is a fenced block of its own: the opening fence and \`mesh-<name>\` alone on a line, one JSON object, then the closing fence alone on a line.

To hand work to a teammate (the default for anything outside your part), end your answer with:
${markerBlock('delegate', '{"member": "<teammate id>", "brief": "<what to do, the files, what done means>", "task": "<task id>"}')}`,
    `When your work finishes the task you are anchored to, or answers work handed to you, end with a report (omit "for" to answer every open request; ${commits ? '"commit": null with "files" when a teammate commits for you' : '"commit": null with "files": the git-manager commits them for you'}):
${markerBlock('report', '{"status": "done", "task": "<task id>", "summary": "<one paragraph>", "for": ["<request id>"], "commit": null, "files": ["<changed file>"], "subject": "<type>(<scope>): <subject> [<task id>]"}')}`,
    ...(deployer
      ? [
          `After a release, your done report also names what went out: the daemon records it on the timeline as a deploy (\`deploy.completed\`):
${markerBlock('report', '{"status": "done", "task": "<task id>", "summary": "<what was released>", "module": "<module id>", "url": "<https address where it runs>", "version": "<version released>", "sha": "<commit deployed>"}')}`,
        ]
      : []),
    `To take a teammate's profile for your next turn only:
${markerBlock('become', '{"member": "<teammate id>"}')}`,
  ]
  if (commits) {
    parts.push(`To commit files (exactly those named, with the team's commit conventions):
${markerBlock('commit', '{"subject": "<type>(<scope>): <subject>", "files": ["<changed file>"], "body": "<why, in a few lines>", "task": "<task id>"}')}`)
  }
  return parts.join('\n\n')
}

export interface SystemPromptParts {
  member: MemberCard
  files: ContextFile[]
  catalog: CatalogEntry[]
  /** Boundary sentences that apply to this roster (team/boundaries.ts). */
  boundaries: string[]
}

export function systemPrompt({member, files, catalog, boundaries}: SystemPromptParts): string {
  const parts = [member.prompt.trim()]
  if (boundaries.length > 0) parts.push(boundaries.map((line) => `- ${line}`).join('\n'))
  if (files.length > 0) parts.push(`## Project context\n\n${files.map((file) => `### ${file.id}\n\n${file.body}`).join('\n\n')}`)
  const commits = member.id === GIT_MANAGER || !catalog.some((entry) => entry.id === GIT_MANAGER)
  parts.push(catalogText(catalog), protocolText(commits, member.id === DEPLOYER))
  return parts.filter((part) => part !== '').join('\n\n')
}

/** The text of one turn: the inputs it answers, each headed by who sent it when there are several or they are not the operator's. */
export function turnText(inputs: Array<{author: string; origin: string; text: string; request_ids?: string[]}>, anchor: TurnAnchor | undefined): string {
  const head = anchor?.task ? `(anchor: ${anchor.initiative ? `#${anchor.initiative} · ` : ''}#${anchor.task})\n\n` : ''
  if (inputs.length === 1 && (inputs[0].origin === 'send' || inputs[0].origin === 'queue' || inputs[0].origin === 'dispatch' || inputs[0].origin === 'ask')) return head + inputs[0].text
  return (
    head +
    inputs
      .map((input) => {
        const requests = input.request_ids && input.request_ids.length > 0 ? ` (request ${input.request_ids.join(', ')})` : ''
        return `### From ${input.author}${requests}\n\n${input.text}`
      })
      .join('\n\n')
  )
}
