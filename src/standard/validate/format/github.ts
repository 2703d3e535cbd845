import type {ValidationReport} from '../types.js'

const LEVEL = {error: 'error', warning: 'warning', info: 'notice'} as const

/** GitHub workflow-command escaping: data escapes %, CR, LF; properties also `:` and `,`. */
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')

export interface GithubOptions {
  /** The command named in the summary line (default `mesh validate`). */
  tool?: string
  /** What was checked, counted in the summary line (e.g. `card`: "in 1 card", "in 2 cards"). */
  noun?: string
}

/**
 * One `::error file=…,line=…,col=…,title=<rule>::message` annotation per
 * finding (warnings as ::warning, infos as ::notice), then a summary line.
 * `pathPrefix` turns repo-root-relative paths into workspace-relative ones.
 */
export function formatGithub(report: ValidationReport, pathPrefix = '', options: GithubOptions = {}): string {
  const lines = report.findings.map((finding) => {
    const properties = finding.file.startsWith('commit:')
      ? [`title=${escapeProperty(`${finding.rule} (${finding.file})`)}`]
      : [`file=${escapeProperty(pathPrefix + finding.file)}`, `line=${finding.line}`, `col=${finding.column}`, `title=${escapeProperty(finding.rule)}`]
    return `::${LEVEL[finding.severity]} ${properties.join(',')}::${escapeData(finding.message)}`
  })
  const {errors, warnings, infos, files} = report.summary
  // mesh validate's line says "files" whatever the count, as it always has (workflows match it).
  const checked = options.noun ? `${files} ${options.noun}${files === 1 ? '' : 's'}` : `${files} files`
  lines.push(`${options.tool ?? 'mesh validate'}: ${errors} errors, ${warnings} warnings, ${infos} infos in ${checked}`)
  return lines.join('\n')
}
