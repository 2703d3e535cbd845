import type {ValidationReport} from '../types.js'

const LEVEL = {error: 'error', warning: 'warning', info: 'notice'} as const

/** GitHub workflow-command escaping: data escapes %, CR, LF; properties also `:` and `,`. */
const escapeData = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')

/**
 * One `::error file=…,line=…,col=…,title=<rule>::message` annotation per
 * finding (warnings as ::warning, infos as ::notice), then a summary line.
 * `pathPrefix` turns repo-root-relative paths into workspace-relative ones.
 */
export function formatGithub(report: ValidationReport, pathPrefix = ''): string {
  const lines = report.findings.map((finding) => {
    const properties = finding.file.startsWith('commit:')
      ? [`title=${escapeProperty(`${finding.rule} (${finding.file})`)}`]
      : [`file=${escapeProperty(pathPrefix + finding.file)}`, `line=${finding.line}`, `col=${finding.column}`, `title=${escapeProperty(finding.rule)}`]
    return `::${LEVEL[finding.severity]} ${properties.join(',')}::${escapeData(finding.message)}`
  })
  const {errors, warnings, infos, files} = report.summary
  lines.push(`mesh validate: ${errors} errors, ${warnings} warnings, ${infos} infos in ${files} files`)
  return lines.join('\n')
}
