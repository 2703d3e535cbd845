import {describe, expect, it} from 'vitest'
import {formatGithub, formatHuman, formatSarif, RULES, type ValidationReport} from '../../../src/standard/validate/index.js'

const report: ValidationReport = {
  root: '/repo',
  findings: [
    {file: '.mesh/a.md', line: 3, column: 5, rule: 'schema', severity: 'error', message: 'status "wip" must be one of "next", "done"'},
    {file: '.mesh/a.md', line: 12, column: 1, rule: 'task-sections', severity: 'warning', message: 'missing sections ## Files'},
    {file: '.mesh/b,c.md', line: 1, column: 1, rule: 'unknown-file', severity: 'info', message: 'not a file: 100%\nreally'},
    {file: 'commit:abc123', line: 1, column: 1, rule: 'commit-type', severity: 'error', message: 'type "feature" is not one of feat'},
  ],
  skipped: [{path: '.mesh/credentials/', reason: 'secrets (deny-list): never read'}],
  summary: {files: 10, skipped: 1, errors: 2, warnings: 1, infos: 1},
  ok: false,
}
const clean: ValidationReport = {root: '/repo', findings: [], skipped: [], summary: {files: 3, skipped: 0, errors: 0, warnings: 0, infos: 0}, ok: true}

describe('human format', () => {
  it('groups by file with aligned positions, the rule, and a summary', () => {
    const text = formatHuman(report, {color: false, verbose: false})
    expect(text).toContain('.mesh/a.md\n  3:5   error    status "wip" must be one of "next", "done"  schema\n  12:1  warning  missing sections ## Files  task-sections')
    expect(text.split('\n').at(-1)).toBe('✖ 2 errors, 1 warning, 1 info — 10 files checked, 1 skipped (--verbose lists them)')
    expect(text).not.toContain('\u001B[')
  })
  it('lists skipped paths with --verbose, and colours on a TTY', () => {
    expect(formatHuman(report, {color: false, verbose: true})).toContain('Skipped (not read)\n  .mesh/credentials/  secrets (deny-list): never read')
    expect(formatHuman(report, {color: true, verbose: false})).toContain('\u001B[31merror  \u001B[0m')
  })
  it('says so when clean', () => {
    expect(formatHuman(clean, {color: false, verbose: false})).toBe('✓ no problems — 3 files checked')
  })
})

describe('github format', () => {
  it('writes one escaped annotation per finding, then a summary', () => {
    const lines = formatGithub(report, 'sub/').split('\n')
    expect(lines[0]).toBe('::error file=sub/.mesh/a.md,line=3,col=5,title=schema::status "wip" must be one of "next", "done"')
    expect(lines[1]).toBe('::warning file=sub/.mesh/a.md,line=12,col=1,title=task-sections::missing sections ## Files')
    expect(lines[2]).toBe('::notice file=sub/.mesh/b%2Cc.md,line=1,col=1,title=unknown-file::not a file: 100%25%0Areally')
    expect(lines[3]).toBe('::error title=commit-type (commit%3Aabc123)::type "feature" is not one of feat')
    expect(lines[4]).toBe('mesh validate: 2 errors, 1 warnings, 1 infos in 10 files')
  })
})

describe('sarif format', () => {
  it('is a SARIF 2.1.0 log with the rule catalogue and one result per finding', () => {
    const sarif = formatSarif(report, {toolVersion: '0.1.0'}) as {version: string; $schema: string; runs: Array<{tool: {driver: {name: string; version: string; rules: Array<{id: string; defaultConfiguration: {level: string}; shortDescription: {text: string}; help: {text: string}}>}}; results: Array<Record<string, unknown>>}>}
    expect(sarif.version).toBe('2.1.0')
    expect(sarif.$schema).toMatch(/sarif-2\.1\.0/)
    const [run] = sarif.runs
    expect(run.tool.driver).toMatchObject({name: 'mesh-validate', version: '0.1.0'})
    expect(run.tool.driver.rules.map((rule) => rule.id)).toEqual(RULES.map((rule) => rule.id))
    for (const rule of run.tool.driver.rules) {
      expect(['error', 'warning', 'note']).toContain(rule.defaultConfiguration.level)
      expect(rule.shortDescription.text).toBeTruthy()
      expect(rule.help.text).toBeTruthy()
    }
    expect(run.results[0]).toEqual({
      ruleId: 'schema',
      ruleIndex: RULES.findIndex((rule) => rule.id === 'schema'),
      level: 'error',
      message: {text: 'status "wip" must be one of "next", "done"'},
      locations: [{physicalLocation: {artifactLocation: {uri: '.mesh/a.md', uriBaseId: '%SRCROOT%'}, region: {startLine: 3, startColumn: 5}}}],
    })
    expect(run.results[2]).toMatchObject({level: 'note'})
    expect(run.results[3]).not.toHaveProperty('locations')
    expect(run.results).toHaveLength(4)
  })
})
