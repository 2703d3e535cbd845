import {instancePathToField} from '../../lib/schemas.js'
import {QUOTE_MAX_CHARS} from './constants.js'
import {cardRule} from './rules.js'
import type {Finding} from './types.js'

/** A JSON pointer from its steps (RFC 6901 escaping). */
export const pointer = (...steps: Array<string | number>) => steps.map((step) => '/' + String(step).replace(/~/g, '~0').replace(/\//g, '~1')).join('')

/** A card value for a message: JSON-quoted (no control characters reach a terminal), cut when long. */
export function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > QUOTE_MAX_CHARS ? text.slice(0, QUOTE_MAX_CHARS - 1) + '…' : text
}

/** Collects findings; the severity comes from the rule catalogue, the message is led by the field. */
export class Findings {
  readonly list: Finding[] = []

  add(rule: string, path: string, text: string): void {
    this.list.push({severity: cardRule(rule).severity, rule, message: `${instancePathToField(path)}: ${text}`, path})
  }

  /** Whether a finding already points at exactly this path. */
  has(path: string): boolean {
    return this.list.some((finding) => finding.path === path)
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
