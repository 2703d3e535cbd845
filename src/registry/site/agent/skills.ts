/**
 * The skills of the cached PublicCard as cards: what each does, its
 * examples, its input schema, its price and the exact commands that call
 * it. Card text is clipped and the section keeps to a size budget, so a
 * card of 100 long skills still makes a page under 200 KB (the PublicCard
 * JSON keeps everything whole).
 */
import {jsonExampleBodies, skillInputSchema, type CardSkill} from '../../../protocol/agent-card.js'
import {badge} from '../components.js'
import {CLIP} from '../constants.js'
import {clip, html, type Html} from '../html.js'
import type {ProbeResult} from '../../types.js'
import {SKILL_ID_RULE, skillCommands, skillUrl} from './commands.js'
import {allowanceText, priceText, pricingOf} from './pricing.js'

/** Display limits of one skill card. */
export const SKILL_CLIP = {description: 1500, example: 600, examples: 4, schema: 3000} as const
/** Rendered skill cards stop at this many characters; later skills are listed by name and URL only. */
export const SKILLS_BUDGET = 110_000

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

/** The skills of a card that have an id; other entries are skipped (the schema requires one). */
export function cardSkills(card: Record<string, unknown>): CardSkill[] {
  return Array.isArray(card.skills) ? card.skills.filter((skill): skill is CardSkill => isRecord(skill) && typeof skill.id === 'string') : []
}

/** Pretty JSON, clipped for display. */
function prettyJson(value: unknown, max: number): string {
  return clip(JSON.stringify(value, null, 2), max)
}

/** A command in a block the script gives a copy button; without script it is plain selectable text. */
export function commandBlock(label: string, command: string): Html {
  return html`<div class="command"><span class="command-label">${label}</span><pre class="cmd"><code>${command}</code></pre></div>`
}

function answeringBadge(answering: boolean | null | undefined): Html | null {
  if (answering === true) return badge('answered the last probe', 'good')
  if (answering === false) return badge('did not answer the last probe', 'bad')
  return null
}

interface SkillContext {
  /** The skill base URL (null when the card gives no usable http(s) address). */
  base: string | null
  cardPricing: Record<string, unknown> | undefined
  probeSkills: NonNullable<ProbeResult['skills']>
}

function renderSkill(skill: CardSkill, ctx: SkillContext): Html {
  const name = str(skill.name) ?? skill.id
  // skillPricing's rule (the skill's own, else the card's), keeping "not stated" when neither has one.
  const pricing = pricingOf(skill.pricing) ?? pricingOf(ctx.cardPricing)
  const allowance = allowanceText(pricing)
  const probed = ctx.probeSkills.find((entry) => entry.id === skill.id)
  const examples = (Array.isArray(skill.examples) ? skill.examples : []).filter((example): example is string => typeof example === 'string')
  const jsonBody = jsonExampleBodies(examples)[0]
  const schema = skillInputSchema(skill)
  const idOk = SKILL_ID_RULE.test(skill.id) && skill.id.length <= 64
  const commands = ctx.base ? skillCommands(ctx.base, skill.id, jsonBody) : null
  const description = str(skill.description)
  return html`<article class="skill">
<header class="skill-head"><h3>${clip(name, CLIP.name)}</h3> <code class="skill-id">${clip(skill.id, CLIP.name)}</code></header>
<p class="skill-badges">${badge(priceText(pricing), 'neutral', 'Price per call')} ${answeringBadge(probed?.answering)}${probed?.card_match ? html` ${badge(`card match ${probed.card_match}`, 'neutral')}` : ''}</p>
${description ? html`<p class="skill-desc">${clip(description, SKILL_CLIP.description)}</p>` : html`<p class="muted">No description.</p>`}
${allowance ? html`<p class="muted">${allowance}</p>` : ''}
${
  examples.length
    ? html`<h4>Examples</h4><ul class="examples">${examples.slice(0, SKILL_CLIP.examples).map((example) => html`<li><code>${clip(example, SKILL_CLIP.example)}</code></li>`)}</ul>`
    : ''
}
${schema ? html`<details class="schema"><summary>Input schema</summary><pre><code>${prettyJson(schema, SKILL_CLIP.schema)}</code></pre></details>` : html`<p class="muted">No input schema on the card.</p>`}
${idOk ? '' : html`<p class="notice">This skill id breaks the card rules (lower-case words joined by <code>-</code>): the agent may not serve it, and <code>mesh call</code> refuses it.</p>`}
${
  commands && ctx.base
    ? html`<p class="skill-url"><span class="muted">POST</span> <code>${skillUrl(ctx.base, skill.id)}</code></p>
${commandBlock('curl', commands.curl)}
${commandBlock('mesh call', commands.meshCall)}
${commands.bodyTooLong ? html`<p class="muted">The example body is too long for a command line; the commands send <code>{}</code>: put the example in a file and pass <code>--data @file.json</code>.</p>` : ''}`
    : html`<p class="muted">No command: the card gives no http(s) address to call.</p>`
}
</article>`
}

/** A later skill over the budget: its name, id and URL only. */
function renderSkillLine(skill: CardSkill, base: string | null): Html {
  return html`<li><strong>${clip(str(skill.name) ?? skill.id, CLIP.name)}</strong> <code>${clip(skill.id, CLIP.name)}</code>${base ? html` · <code>POST ${clip(skillUrl(base, skill.id), CLIP.short)}</code>` : ''}</li>`
}

/** Every skill of the card: full cards while the budget lasts, then one line each. */
export function renderSkills(card: Record<string, unknown>, base: string | null, probe: ProbeResult | null): Html {
  const skills = cardSkills(card)
  if (skills.length === 0) return html`<p class="muted">The card advertises no skills.</p>`
  const ctx: SkillContext = {base, cardPricing: isRecord(card.pricing) ? card.pricing : undefined, probeSkills: probe?.skills ?? []}
  const cards: Html[] = []
  const rest: Html[] = []
  let used = 0
  for (const skill of skills) {
    if (used < SKILLS_BUDGET) {
      const rendered = renderSkill(skill, ctx)
      used += rendered.value.length
      cards.push(rendered)
    } else rest.push(renderSkillLine(skill, base))
  }
  return html`<div class="skills">${cards}</div>
${rest.length ? html`<h3>${rest.length} more skill${rest.length === 1 ? '' : 's'}</h3><p class="muted">Shown in short to keep this page small; the PublicCard JSON has them whole.</p><ul class="skill-lines">${rest}</ul>` : ''}`
}
