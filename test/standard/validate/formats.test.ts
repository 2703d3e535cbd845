import {describe, expect, it} from 'vitest'
import {checkCommitMessage, formatGithub, formatHuman, formatSarif, RULES, validateProject, type ValidationReport} from '../../../src/standard/validate/index.js'
import {makeRepo} from '../fixtures.js'

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
    expect((run.results[2].locations as Array<{physicalLocation: {artifactLocation: {uri: string}}}>)[0].physicalLocation.artifactLocation.uri).toBe('.mesh/b%2Cc.md')
    expect(run.results[3]).not.toHaveProperty('locations')
    expect(run.results).toHaveLength(4)
  })
})

describe('sarif artifact URIs', () => {
  it('percent-encode each path segment, so # ? % and spaces stay part of the file name', () => {
    const weird: ValidationReport = {...clean, findings: [{file: '.mesh/docs/ops/we#ird ?name%.md', line: 1, column: 1, rule: 'schema', severity: 'error', message: 'x'}]}
    const sarif = formatSarif(weird, {pathPrefix: 'sub dir/'}) as {runs: Array<{results: Array<{locations: Array<{physicalLocation: {artifactLocation: {uri: string}}}>}>}>}
    const uri = sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri
    expect(uri).toBe('sub%20dir/.mesh/docs/ops/we%23ird%20%3Fname%25.md')
    // A URI reference parser reads it back as the same path, with no fragment or query.
    const parsed = new URL(uri, 'file:///checkout/')
    expect(parsed.hash).toBe('')
    expect(parsed.search).toBe('')
    expect(decodeURIComponent(parsed.pathname)).toBe('/checkout/sub dir/.mesh/docs/ops/we#ird ?name%.md')
  })
})

/**
 * The parts of the OASIS SARIF 2.1.0 schema this log uses, restated (objects
 * closed where SARIF closes them), so a structural slip fails here rather than
 * in GitHub code scanning.
 */
const SARIF_SUBSET = {
  type: 'object',
  additionalProperties: false,
  required: ['version', 'runs'],
  properties: {
    $schema: {type: 'string', format: 'uri'},
    version: {enum: ['2.1.0']},
    runs: {type: 'array', items: {$ref: '#/$defs/run'}},
  },
  $defs: {
    message: {type: 'object', additionalProperties: false, properties: {text: {type: 'string'}}, required: ['text']},
    run: {
      type: 'object',
      required: ['tool'],
      properties: {
        tool: {type: 'object', additionalProperties: false, required: ['driver'], properties: {driver: {$ref: '#/$defs/toolComponent'}}},
        results: {type: 'array', items: {$ref: '#/$defs/result'}},
      },
    },
    toolComponent: {
      type: 'object',
      additionalProperties: false,
      required: ['name'],
      properties: {
        name: {type: 'string'},
        version: {type: 'string'},
        informationUri: {type: 'string', format: 'uri'},
        rules: {type: 'array', uniqueItems: true, items: {$ref: '#/$defs/reportingDescriptor'}},
      },
    },
    reportingDescriptor: {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      properties: {
        id: {type: 'string'},
        name: {type: 'string'},
        shortDescription: {$ref: '#/$defs/message'},
        fullDescription: {$ref: '#/$defs/message'},
        help: {$ref: '#/$defs/message'},
        defaultConfiguration: {type: 'object', additionalProperties: false, properties: {level: {enum: ['none', 'note', 'warning', 'error']}}},
      },
    },
    result: {
      type: 'object',
      additionalProperties: false,
      required: ['message'],
      properties: {
        ruleId: {type: 'string'},
        ruleIndex: {type: 'integer', minimum: -1},
        level: {enum: ['none', 'note', 'warning', 'error']},
        message: {$ref: '#/$defs/message'},
        locations: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              physicalLocation: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  artifactLocation: {type: 'object', additionalProperties: false, properties: {uri: {type: 'string', format: 'uri-reference'}, uriBaseId: {type: 'string'}}},
                  region: {type: 'object', additionalProperties: false, properties: {startLine: {type: 'integer', minimum: 1}, startColumn: {type: 'integer', minimum: 1}}},
                },
              },
            },
          },
        },
      },
    },
  },
}

describe('sarif structure', () => {
  it('a real report of a broken project matches the SARIF 2.1.0 shapes it uses', async () => {
    const {Ajv2020} = await import('ajv/dist/2020.js')
    const addFormats = ((await import('ajv-formats')) as unknown as {default: {default: (ajv: unknown) => void}}).default.default
    const ajv = new Ajv2020({allErrors: true, strict: false})
    addFormats(ajv)
    const check = ajv.compile(SARIF_SUBSET)
    const repo = makeRepo({
      'mesh.json': '{"mesh_version": 2',
      '.mesh/modules/api/tasks/API2-x.md': '---\nid: API2\nstatus: wip\n---\n',
      '.mesh/docs/ops/odd #1.md': '# no frontmatter\n',
      '.mesh/notes.txt': 'stray',
    })
    try {
      const report = await validateProject(repo.root)
      report.findings.push(...checkCommitMessage({sha: 'abc1234def', message: 'feature: x'}))
      const sarif = formatSarif(report, {toolVersion: '0.1.0'})
      const ok = check(sarif)
      expect(check.errors ?? [], JSON.stringify(check.errors)).toEqual([])
      expect(ok).toBe(true)
      expect((sarif as {runs: Array<{results: unknown[]}>}).runs[0].results.length).toBe(report.findings.length)
      // The control: a slip the subset must catch.
      expect(check({...sarif, extra: true})).toBe(false)
    } finally {
      repo.cleanup()
    }
  })
})
