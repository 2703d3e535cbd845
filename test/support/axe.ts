/**
 * The automated accessibility scan of the site's pages: axe-core run inside
 * a playwright page. The pages' CSP (script-src 'self') would refuse an
 * injected `<script>`, so axe's source is evaluated through the DevTools
 * protocol (`page.evaluate` of the source text), which a page's CSP does not
 * govern — the CSP under test stays on, no `bypassCSP`.
 */
import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import type {Page} from 'playwright-core'

export type AxeImpact = 'minor' | 'moderate' | 'serious' | 'critical'

/** One failed rule with the elements that fail it. */
export interface AxeViolation {
  rule: string
  impact: AxeImpact
  /** axe's one-line description of what to fix. */
  help: string
  helpUrl: string
  /** CSS selectors of the failing elements, and the start of each one's HTML. */
  nodes: Array<{target: string; html: string; summary: string}>
}

export interface AxeReport {
  /** Violations at or above the asked impact (default serious). */
  violations: AxeViolation[]
  /** Every rule axe checked and passed or found inapplicable, as a count (a scan that checked nothing is a bug). */
  rulesRun: number
  /** A readable list of the violations: `rule (impact) — help` and, under it, each target; empty when none. */
  summary: string
}

let source: string | undefined
const axeSource = () => (source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'))

const RANK: Record<AxeImpact, number> = {minor: 0, moderate: 1, serious: 2, critical: 3}

/** Formats violations for a failure message (`label` names the page and scheme). */
export function formatViolations(violations: AxeViolation[], label = ''): string {
  return violations
    .map((v) => [`${label ? `${label}: ` : ''}${v.rule} (${v.impact}) — ${v.help} [${v.helpUrl}]`, ...v.nodes.map((n) => `    ${n.target}  ${n.html}`)].join('\n'))
    .join('\n')
}

/**
 * Runs axe-core on the page as it is now and returns the violations of at
 * least `minImpact` (default serious: the issue's bar is no serious or
 * critical one).
 */
export async function scanAccessibility(page: Page, options: {minImpact?: AxeImpact; label?: string} = {}): Promise<AxeReport> {
  const min = RANK[options.minImpact ?? 'serious']
  // Page code as strings: the test project has no DOM types.
  if (!(await page.evaluate("typeof window.axe === 'object'"))) await page.evaluate(axeSource())
  const raw = (await page.evaluate(SCAN)) as {violations: AxeViolation[]; rulesRun: number}
  const violations = raw.violations.filter((v) => v.impact && RANK[v.impact] >= min)
  return {violations, rulesRun: raw.rulesRun, summary: formatViolations(violations, options.label)}
}

/** Runs axe on the whole document and keeps what the report needs (axe.d.ts has the full result type). */
const SCAN = `(async () => {
  const results = await window.axe.run(document, {resultTypes: ['violations']})
  return {
    violations: results.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({target: n.target.map(String).join(' '), html: n.html.slice(0, 200), summary: n.failureSummary || ''})),
    })),
    rulesRun: results.passes.length + results.inapplicable.length + results.violations.length + results.incomplete.length,
  }
})()`
