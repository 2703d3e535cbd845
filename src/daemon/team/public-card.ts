/**
 * The PublicCard of an exposed member (DECISIONS: Exposed member card;
 * registry spec, PublicCard; schemas/public-card.schema.json): one skill,
 * `ask`, served at `/team/<id>/.well-known/agent.json`. An internal member
 * has no card: it is not discoverable.
 */
import type {MemberCard} from './cards.js'

const DESCRIPTION_MAX = 500

/** The first sentence of the prompt, for the card's description (the catalog rule, spec: delegation 6). */
function firstSentence(prompt: string): string {
  const text = prompt.replace(/\s+/g, ' ').trim()
  const match = /^(.*?[.!?])(\s|$)/.exec(text)
  return (match ? match[1] : text).slice(0, DESCRIPTION_MAX)
}

/** `daemonUrl` is where this daemon answers, e.g. `http://127.0.0.1:5570`. */
export function memberPublicCard(member: MemberCard, daemonUrl: string, version: string) {
  const base = `${daemonUrl}/team/${member.id}`
  const title = member.title ?? member.id
  return {
    name: title,
    url: base,
    version,
    description: firstSentence(member.prompt) || `${title}, a team member of this project, answers questions asked with its member token.`,
    defaultInputModes: ['application/json'],
    defaultOutputModes: ['application/json'],
    protocols: ['http'],
    pricing: {unit: 'request', amount: 0, currency: 'free'},
    availability: {now: true},
    skills: [
      {
        id: 'ask',
        name: `Ask ${title}`,
        description: `Ask ${title} a question. POST ${base}/ask with Authorization: Bearer <member token> and X-Mesh-Project; answers 202 {request_id, conv}, then poll ${daemonUrl}/team/requests/<request_id>.`,
        examples: ['{"text": "What does this project do?"}', '{"text": "Follow up on your last answer.", "session": "<conv>"}'],
        inputSchema: {
          type: 'object',
          required: ['text'],
          additionalProperties: false,
          properties: {text: {type: 'string', minLength: 1}, session: {type: 'string'}},
        },
      },
    ],
    contact: {http: `${base}/ask`},
  }
}
