import {lineAt, type ProjectFile} from '../../project/index.js'
import type {RuleContext} from '../rule-context.js'

/** Token shapes that are secrets wherever they appear (case-sensitive). */
const TOKEN_PATTERNS: ReadonlyArray<readonly [string, RegExp]> = [
  ['private key', /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/],
  ['API key (sk-…)', /\bsk-(?:[a-z]+-)?[A-Za-z0-9_-]{20,}/],
  ['GitHub token', /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{22,}/],
  ['AWS access key id', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/],
  ['Slack token', /\bxox[abprs]-[A-Za-z0-9-]{10,}/],
  ['Google API key', /\bAIza[0-9A-Za-z_-]{35}/],
  ['Stripe live key', /\b(?:sk|rk)_live_[0-9a-zA-Z]{24,}/],
  ['bearer token', /\bBearer[ \t]+[A-Za-z0-9._~+/-]{24,}=*/],
  ['JSON Web Token', /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/],
  // mesh's own secrets (src/cluster, src/registry): 32 random bytes in base64url behind a prefix.
  ['mesh cluster token (ck_/ak_)', /(?<![A-Za-z0-9_-])(?:ck|ak)_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/],
  ['mesh registry admin key', /(?<![A-Za-z0-9_-])madm_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/],
  ['mesh post delete token', /(?<![A-Za-z0-9_-])dt_[a-z2-7]{26}(?![A-Za-z0-9_-])/],
]
/** `key: value` assignments whose value looks generated (case-insensitive key names). */
const ASSIGNMENT_PATTERNS: ReadonlyArray<readonly [string, RegExp]> = [
  ['AWS secret access key', /aws_secret_access_key["']?[ \t]*[:=][ \t]*["']?[A-Za-z0-9/+=]{40}/i],
  ['hex API key', /\b(?:api[_-]?key|apikey|secret|token|password|passwd|access[_-]?key)["']?[ \t]*[:=][ \t]*["']?[0-9a-f]{32,}\b/i],
]
const TOKENS = new RegExp(TOKEN_PATTERNS.map(([, regex]) => `(${regex.source})`).join('|'), 'g')
const ASSIGNMENTS = new RegExp(ASSIGNMENT_PATTERNS.map(([, regex]) => `(${regex.source})`).join('|'), 'gi')
/** Put this on a line to keep an example token in a doc. */
const ALLOW = 'mesh:allow-secret'

/**
 * No committed file holds a secret. Deny-listed paths are local (never
 * committed) and not scanned; credentials/ is never even read. The message
 * shows only the first characters: secrets never reach output.
 */
export function checkSecrets(context: RuleContext): void {
  for (const file of context.project.files) {
    if (file.denied || file.text === undefined) continue
    scan(file, TOKENS, TOKEN_PATTERNS, context)
    scan(file, ASSIGNMENTS, ASSIGNMENT_PATTERNS, context)
  }
}

function scan(file: ProjectFile, combined: RegExp, patterns: ReadonlyArray<readonly [string, RegExp]>, {findings}: RuleContext): void {
  const text = file.text as string
  combined.lastIndex = 0
  for (let match = combined.exec(text); match; match = combined.exec(text)) {
    const group = match.findIndex((value, index) => index > 0 && value !== undefined)
    const name = patterns[group - 1]?.[0] ?? 'secret'
    const lineStart = text.lastIndexOf('\n', match.index) + 1
    const lineEnd = text.indexOf('\n', match.index)
    const lineText = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd)
    if (lineText.includes(ALLOW) || looksLikePlaceholder(match[0])) continue
    findings.add(file, 'secret', `looks like a ${name} (${match[0].slice(0, 6)}…); remove it, rotate it, and keep it in .mesh/credentials/`, {
      line: lineAt(text, match.index),
      column: match.index - lineStart + 1,
    })
  }
}

/** `sk-xxxxxxxxxxxxxxxxxxxxxxxx`, `Bearer 000000…`: examples, not keys. */
function looksLikePlaceholder(token: string): boolean {
  const tail = token.slice(-20)
  return new Set(tail).size < 6
}
