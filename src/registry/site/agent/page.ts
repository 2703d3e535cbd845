/**
 * The agent page (`/agent/<id>` for a browser): a header block with the
 * name, the online state and the quality badges; what the badges mean; the
 * facts (owner, category, tags, pricing, identity); every skill of the
 * cached PublicCard with its commands. Everything comes from the stored
 * record (directory record, DiscoveryCard, the prober's cached PublicCard);
 * nothing is fetched from the agent while rendering.
 */
import {shellCommand} from '../../../lib/shell-quote.js'
import {onlineState, timeAgo} from '../components.js'
import {CLIP} from '../constants.js'
import {clip, html, safeHttpUrl, type Html} from '../html.js'
import {renderPage} from '../layout.js'
import type {SiteAssets} from '../assets.js'
import {directoryRecord, siteCard, type DirectoryRecord} from '../../records.js'
import {skillBaseUrl, type PublicCard} from '../../probe/public-card.js'
import type {AgentRecord, JsonObject} from '../../types.js'
import {cardMatchQuality, keyQuality, liveQuality, operationalQuality, ownerClassText, type Quality} from './qualities.js'
import {allowanceText, priceText, pricingOf} from './pricing.js'
import {renderSkills} from './skills.js'

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [])

/** A URL from a card: a link when it is http(s), else inert text. */
function urlText(value: string): Html {
  const href = safeHttpUrl(value)
  const shown = clip(value, CLIP.short)
  return href ? html`<a href="${href}" rel="nofollow noopener noreferrer">${shown}</a>` : html`<code>${shown}</code>`
}

const time = (iso: string, nowMs: number) => html`<time datetime="${iso}" title="${iso}">${timeAgo(iso, nowMs)}</time>`

function fact(label: string, value: Html | string | null): Html | null {
  return value === null || value === '' ? null : html`<dt>${label}</dt><dd>${value}</dd>`
}

function qualityRows(qualities: Quality[]): Html {
  return html`<dl class="qualities">${qualities.map((quality) => html`<dt>${quality.badge}</dt><dd>${quality.meaning}</dd>`)}</dl>`
}

/** The skill base URL: the PublicCard's url on the registered endpoint's origin, else the endpoint (as the prober and search's `invoke` do). */
export function skillBase(publicCard: JsonObject, endpoint: string | null): string | null {
  const cardUrl = safeHttpUrl(publicCard.url)
  const location = safeHttpUrl(endpoint)
  // Without a registered endpoint the card's url cannot be checked against anything: no command.
  if (!location) return null
  return skillBaseUrl({...publicCard, url: cardUrl ?? location} as PublicCard, location)
}

/** What the page says about the cached PublicCard: when it was fetched, whether the latest fetch failed. */
function publicCardStatus(record: DirectoryRecord, nowMs: number): Html {
  const failed = record.card_error ? html` The latest fetch, ${time(record.card_error.at, nowMs)}, failed: <code>${clip(record.card_error.reason, CLIP.short)}</code>.` : ''
  if (!record.card_fetched_at)
    return html`The registry has not fetched this agent's PublicCard (<code>/.well-known/agent.json</code>) yet, so its skills are not known here: it reads it from online agents about once a minute.${failed}`
  return html`From its PublicCard, fetched ${time(record.card_fetched_at, nowMs)}.${record.card_error ? html`${failed} The last good copy is shown.` : ''}${
    record.online ? '' : html` The agent is offline: these skills answer only once it is back.`
  }`
}

export interface AgentPageInput {
  agent: AgentRecord
  nowMs: number
  publicUrl: string
}

/** The main content of the page. */
export function renderAgentMain({agent, nowMs, publicUrl}: AgentPageInput): Html {
  const record = directoryRecord(agent, nowMs, publicUrl)
  const card = siteCard(agent)
  const publicCard = agent.probe?.card ?? null
  const path = `/agent/${encodeURIComponent(record.agent_id)}`
  const name = clip(record.display_name, CLIP.name)
  const category = str(card.category)
  const tags = strings(card.tags).length ? strings(card.tags) : record.capabilities
  const description = record.description ?? str(card.description) ?? str(publicCard?.description)
  const pricing = pricingOf(publicCard?.pricing) ?? pricingOf(card.pricing)
  const allowance = allowanceText(pricing)
  const base = publicCard ? skillBase(publicCard, record.endpoint) : null
  const documentation = str(publicCard?.documentationUrl)
  const stateClass = record.online ? 'is-online' : 'is-offline'

  const facts = [
    fact('Agent id', html`<code>${record.agent_id}</code>`),
    fact('Owner', ownerClassText(record.owner_class)),
    fact('Brand', record.brand ? clip(record.brand, CLIP.name) : null),
    fact('Category', category ? html`<code>${clip(category, CLIP.name)}</code>` : null),
    fact('Tags', tags.length ? html`${tags.slice(0, 50).map((tag) => html`<span class="tag">${clip(tag, CLIP.name)}</span>`)}` : null),
    fact('Pricing', html`${priceText(pricing)}${allowance ? html`<br><span class="muted">${allowance}</span>` : ''}`),
    fact('Registered', time(record.registered, nowMs)),
    fact('Last seen', record.last_seen ? time(record.last_seen, nowMs) : 'never (no heartbeat yet)'),
    fact('Version', str(publicCard?.version) ? html`<code>${clip(String(publicCard?.version), CLIP.name)}</code>` : null),
    fact('Protocols', strings(publicCard?.protocols).length ? html`${strings(publicCard?.protocols).slice(0, 20).map((p) => html`<span class="tag">${clip(p, CLIP.name)}</span>`)}` : null),
    fact('Accepts', strings(publicCard?.defaultInputModes).length ? clip(strings(publicCard?.defaultInputModes).join(', '), CLIP.short) : null),
    fact('Produces', strings(publicCard?.defaultOutputModes).length ? clip(strings(publicCard?.defaultOutputModes).join(', '), CLIP.short) : null),
    fact('Documentation', documentation ? urlText(documentation) : null),
  ]

  const identity = [
    fact('Handle', html`<code>${record.handle}</code><br><span class="muted">Its name on this registry: it stays the same when the agent moves. Share this.</span>`),
    fact(
      'Location',
      record.endpoint
        ? html`${urlText(record.endpoint)}<br><span class="muted">Where it runs now: it may move; the registry keeps the handle pointing at it.</span>`
        : html`<span class="muted">No endpoint registered: it cannot be called directly.</span>`,
    ),
    fact('DID', record.did ? html`<code>${record.did}</code><br><span class="muted">Derived from its public key.</span>` : html`<span class="muted">none (no key bound)</span>`),
  ]

  return html`<article class="agent-page ${stateClass}" data-agent-id="${record.agent_id}" data-now-ms="${nowMs}">
<section class="agent-hero" aria-labelledby="agent-name">
<p class="agent-kicker">${record.brand ? html`<span class="agent-brand">${clip(record.brand, CLIP.name)}</span> · ` : ''}${record.owner_class}${category ? html` · ${clip(category, CLIP.name)}` : ''}</p>
<h1 id="agent-name">${name}</h1>
<p class="agent-state" data-agent-state aria-live="polite">${onlineState(record.online, record.last_seen, nowMs)}</p>
<p class="agent-badges">${operationalQuality(record.operational).badge} ${cardMatchQuality(record.card_match).badge} ${liveQuality(record.live_check, nowMs).badge} ${keyQuality(record).badge}</p>
${description ? html`<p class="agent-desc">${clip(description, CLIP.description)}</p>` : html`<p class="muted">No description.</p>`}
${tags.length ? html`<p class="agent-tags">${tags.slice(0, 50).map((tag) => html`<span class="tag">${clip(tag, CLIP.name)}</span>`)}</p>` : ''}
</section>

<section aria-labelledby="qualities">
<h2 id="qualities">What the registry checked</h2>
${qualityRows([operationalQuality(record.operational), cardMatchQuality(record.card_match), liveQuality(record.live_check, nowMs), keyQuality(record)])}
${record.probed_at ? html`<p class="muted">Last probe ${time(record.probed_at, nowMs)}.</p>` : ''}
</section>

<div class="agent-columns">
<section aria-labelledby="facts">
<h2 id="facts">Facts</h2>
<dl class="facts">${facts}</dl>
</section>
<section aria-labelledby="identity">
<h2 id="identity">Identity</h2>
<dl class="facts">${identity}</dl>
</section>
</div>

<section aria-labelledby="skills">
<h2 id="skills">Skills</h2>
<p class="${publicCard ? 'muted' : 'notice'}">${publicCardStatus(record, nowMs)}</p>
${publicCard ? renderSkills(publicCard, base, agent.probe) : ''}
</section>

<section aria-labelledby="json">
<h2 id="json">As JSON</h2>
<ul class="json-links">
<li>${
  record.online && publicCard
    ? html`<a href="${path}/.well-known/agent.json">PublicCard</a> <span class="muted">— the registry's cached copy of the agent's own card (served while the agent is online).</span>`
    : html`PublicCard <span class="muted">— not served now: the registry serves its cached copy of the agent's own card only while the agent is online and once it has fetched one.</span>`
}</li>
<li><a href="/v1/agents/${encodeURIComponent(record.agent_id)}">Directory record</a> <span class="muted">— everything above, as the API gives it.</span></li>
</ul>
<p class="muted">This same address gives the agent's DiscoveryCard to a program that asks for JSON:</p>
<pre class="cmd"><code>${shellCommand(['curl', '-H', 'Accept: application/json', record.handle])}</code></pre>
</section>
</article>`
}

/** The whole page. */
export function renderAgentPage(assets: SiteAssets, input: AgentPageInput): string {
  const name = input.agent.displayName ?? input.agent.agentId
  return renderPage(assets, {
    title: clip(name, CLIP.name),
    section: 'agent',
    main: renderAgentMain(input),
    styles: ['agent.css'],
    scripts: ['agent.js'],
    description: clip(input.agent.description ?? `The mesh agent ${name}`, CLIP.short),
  })
}
