import type {Finding, ValidationReport} from '../types.js'

export interface HumanOptions {
  /** ANSI colours (a TTY that did not ask for NO_COLOR). */
  color: boolean
  /** Also list the paths that were not read, with why. */
  verbose: boolean
  /** What was checked, counted in the summary line (default `file`; `mesh card lint` checks cards). */
  noun?: string
}

const paint = (on: boolean, code: string) => (text: string) => (on ? `\u001B[${code}m${text}\u001B[0m` : text)

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** Findings grouped by file, one aligned line each, then a summary line (eslint-style). */
export function formatHuman(report: ValidationReport, options: HumanOptions): string {
  const red = paint(options.color, '31')
  const yellow = paint(options.color, '33')
  const cyan = paint(options.color, '36')
  const dim = paint(options.color, '2')
  const bold = paint(options.color, '1;4')
  const green = paint(options.color, '32')
  const label = {error: red('error  '), warning: yellow('warning'), info: cyan('info   ')}
  const out: string[] = []
  const groups = new Map<string, Finding[]>()
  for (const finding of report.findings) {
    const group = groups.get(finding.file)
    if (group) group.push(finding)
    else groups.set(finding.file, [finding])
  }
  for (const [file, findings] of groups) {
    out.push(bold(file))
    const width = Math.max(...findings.map((finding) => `${finding.line}:${finding.column}`.length))
    for (const finding of findings) {
      out.push(`  ${`${finding.line}:${finding.column}`.padEnd(width)}  ${label[finding.severity]}  ${finding.message}  ${dim(finding.rule)}`)
    }
    out.push('')
  }
  if (options.verbose && report.skipped.length > 0) {
    out.push(bold('Skipped (not read)'))
    for (const entry of report.skipped) out.push(`  ${entry.path}  ${dim(entry.reason)}`)
    out.push('')
  }
  const {errors, warnings, infos, files, skipped} = report.summary
  const counts = `${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')}`
  const scope = `${plural(files, options.noun ?? 'file')} checked${skipped > 0 ? `, ${skipped} skipped${options.verbose ? '' : ' (--verbose lists them)'}` : ''}`
  if (report.findings.length === 0) out.push(green(`✓ no problems — ${scope}`))
  else out.push(`${errors > 0 ? red('✖') : yellow('!')} ${counts} — ${scope}`)
  return out.join('\n')
}
