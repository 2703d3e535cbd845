import type {ProjectFile} from '../project/index.js'
import {PositionIndex, type Where} from './positions.js'
import {ruleInfo} from './rules.js'
import type {Finding, Severity} from './types.js'

interface Pending {
  file: ProjectFile | string
  rule: string
  severity: Severity
  message: string
  where?: Where
}

/**
 * Gathers findings as rules run; positions given as JSON pointers are
 * resolved only at the end, and only for files that have findings.
 */
export class FindingCollector {
  private readonly pending: Pending[] = []

  /** Adds a finding; severity defaults to the rule's (see rules.ts). */
  add(file: ProjectFile | string, rule: string, message: string, where?: Where, severity?: Severity): void {
    this.pending.push({file, rule, severity: severity ?? ruleInfo(rule).severity, message, where})
  }

  get size(): number {
    return this.pending.length
  }

  /** Findings with positions, sorted by file, line, column, rule. */
  resolve(): Finding[] {
    const positions = new PositionIndex()
    const findings = this.pending.map((item): Finding => {
      if (typeof item.file === 'string') {
        const at = item.where && !('pointer' in item.where) ? item.where : {line: 1, column: 1}
        return {file: item.file, line: at.line, column: at.column, rule: item.rule, severity: item.severity, message: item.message}
      }
      const at = positions.locate(item.file, item.where)
      return {file: item.file.path, line: at.line, column: at.column, rule: item.rule, severity: item.severity, message: item.message}
    })
    return findings.sort(
      (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)),
    )
  }
}
