/**
 * The rules that compare a card with the one published before (spec
 * Versioning 3: "Bump the card version when a skill contract changes. Never
 * silently change an inputSchema: add optional fields or publish a new skill
 * id and keep the old one until callers migrate").
 */
import {isDeepStrictEqual} from 'node:util'
import {isObject, pointer, quote, type Findings} from './collector.js'

const schemaKey = (skill: Record<string, unknown>, camel: string, snake: string) => (isObject(skill[camel]) ? camel : isObject(skill[snake]) ? snake : undefined)
const schemaValue = (skill: Record<string, unknown>, camel: string, snake: string) => {
  const key = schemaKey(skill, camel, snake)
  return key ? skill[key] : undefined
}

export function checkVersioning(card: Record<string, unknown>, previous: unknown, out: Findings): void {
  if (!isObject(previous) || !Array.isArray(previous.skills)) {
    out.add('previous-card', '', 'the previous card is not a JSON object with a skills array; the versioning rules were skipped')
    return
  }
  const before = new Map<string, Record<string, unknown>>()
  for (const skill of previous.skills) if (isObject(skill) && typeof skill.id === 'string') before.set(skill.id, skill)
  const now = Array.isArray(card.skills) ? card.skills : []
  const ids = new Set(now.filter(isObject).map((skill) => skill.id))
  const shownVersion = typeof previous.version === 'string' ? ` (version ${quote(previous.version)})` : ''
  for (const id of before.keys()) {
    if (!ids.has(id)) out.add('skill-removed', '/skills', `skill ${quote(id)} of the previous card${shownVersion} is gone; keep it until its callers have migrated`)
  }
  // A version that did not change; a card without a version is card-schema's business.
  if (card.version === undefined || card.version !== previous.version) return
  now.forEach((skill, index) => {
    if (!isObject(skill) || typeof skill.id !== 'string') return
    const old = before.get(skill.id)
    if (!old) return
    const at = pointer('skills', index)
    if (!isDeepStrictEqual(schemaValue(skill, 'inputSchema', 'input_schema'), schemaValue(old, 'inputSchema', 'input_schema'))) {
      const key = schemaKey(skill, 'inputSchema', 'input_schema')
      out.add('version-bump', key ? `${at}/${key}` : at, `the input schema of ${quote(skill.id)} changed but the card version is still ${quote(card.version)}; bump it (or add only optional fields, or publish a new skill id)`)
    }
    const outputChanged = !isDeepStrictEqual(schemaValue(skill, 'outputSchema', 'output_schema'), schemaValue(old, 'outputSchema', 'output_schema'))
    const returnsChanged = !isDeepStrictEqual(skill.returns, old.returns)
    if (outputChanged || returnsChanged)
      out.add('version-bump-output', at, `the ${outputChanged ? 'output schema' : 'returns'} of ${quote(skill.id)} changed but the card version is still ${quote(card.version)}; bump it`)
  })
}
