import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {goodCard} from '../../agent/card-lint/fixtures.js'
import {json, runCli} from '../../support/cli.js'
import {startTestAgent, type TestAgent} from '../../support/test-agent.js'

// `mesh card lint` through the built binary (npm test builds first), run from a temporary folder holding the cards.
describe('mesh card lint (built CLI)', () => {
  let dir: string
  let agent: TestAgent
  const lint = (...args: string[]) => runCli(['card', 'lint', ...args], {cwd: dir})
  const write = (name: string, value: unknown) => writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value, null, 2))

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mesh-card-lint-'))
    write('good.json', goodCard())
    const bad = goodCard()
    bad.skills[0].id = 'Translate_Text'
    bad.pricing = {unit: 'request', amount: 1.5, currency: 'lamports', network: 'solana-devnet'}
    bad.skills[1].description = 'Detects a language.'
    write('bad.json', bad)
    write('local.json', {...goodCard(), url: 'http://localhost:8080'})
    const changed = goodCard()
    changed.skills[0].inputSchema.properties.style = {type: 'string'}
    write('changed.json', changed)
    write('bumped.json', {...changed, version: '1.3.0'})
    const removed = goodCard()
    removed.skills.pop()
    removed.version = '2.0.0'
    write('removed.json', removed)
    write('broken.json', '{"name": ')
    agent = await startTestAgent({card: goodCard()})
  })
  afterAll(async () => {
    await agent.close()
    rmSync(dir, {recursive: true, force: true})
  })

  it('exits 0 on a good card with a summary line', async () => {
    const result = await lint('good.json')
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe('✓ no problems — 1 card checked')
  })

  it('exits 1 with each finding at its line and column, its rule, and a summary', async () => {
    const result = await lint('bad.json')
    expect(result.code).toBe(1)
    const lines = result.stdout.trim().split('\n')
    expect(lines[0]).toBe('bad.json')
    expect(result.stdout).toMatch(/^ {2}\d+:\d+ +error +pricing\.amount: 1\.5 is not a whole number of lamports .* pricing-lamports-integer$/m)
    expect(result.stdout).toMatch(/^ {2}\d+:\d+ +error +skills\[0\]\.id: "Translate_Text" is not kebab-case.* skill-id-kebab$/m)
    expect(result.stdout).toContain('skill-description-when')
    expect(lines.at(-1)).toMatch(/^✖ 2 errors, \d+ warnings, 0 infos — 1 card checked$/)
    // The finding points at the id's value in the file.
    const idLine = readFileSync(join(dir, 'bad.json'), 'utf8').split('\n').findIndex((line) => line.includes('"id": "Translate_Text"')) + 1
    expect(result.stdout).toContain(`  ${idLine}:13  error    skills[0].id`)
  })

  it('exits 0 when there are only warnings; human is another name for text', async () => {
    const result = await lint('local.json', '--format', 'human')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('card-url-localhost')
    expect(result.stdout.trim().split('\n').at(-1)).toBe('! 0 errors, 1 warning, 0 infos — 1 card checked')
  })

  it('--format json and --json print the report: validate\'s shape plus each finding\'s JSON pointer', async () => {
    for (const flags of [['--format', 'json'], ['--json']]) {
      const result = await lint('bad.json', ...flags)
      expect(result.code).toBe(1)
      const report = json(result)
      expect(report).toMatchObject({ok: false, root: join(dir, 'bad.json'), summary: {files: 1, errors: 2, infos: 0}, skipped: []})
      expect(report.findings).toContainEqual(
        expect.objectContaining({file: 'bad.json', rule: 'skill-id-kebab', severity: 'error', path: '/skills/0/id', line: expect.any(Number), column: 13, message: expect.stringContaining('Translate_Text')}),
      )
    }
  })

  it('--format github prints one annotation per finding and a summary', async () => {
    const result = await lint('bad.json', '--format', 'github')
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^::error file=bad\.json,line=\d+,col=13,title=skill-id-kebab::skills\[0\]\.id: /m)
    expect(result.stdout).toMatch(/^::warning file=bad\.json,line=\d+,col=\d+,title=skill-description-when::/m)
    expect(result.stdout.trim().split('\n').at(-1)).toMatch(/^mesh card lint: 2 errors, \d+ warnings, 0 infos in 1 card$/)
  })

  it('--format sarif prints a SARIF 2.1.0 log whose driver is the card rule catalogue', async () => {
    const result = await lint('bad.json', '--format', 'sarif')
    expect(result.code).toBe(1)
    const log = json(result)
    expect(log.version).toBe('2.1.0')
    const run = log.runs[0]
    expect(run.tool.driver.name).toBe('mesh-card-lint')
    expect(run.tool.driver.rules.map((rule: {id: string}) => rule.id)).toContain('pricing-lamports-integer')
    const kebab = run.results.find((entry: {ruleId: string}) => entry.ruleId === 'skill-id-kebab')
    expect(run.tool.driver.rules[kebab.ruleIndex].id).toBe('skill-id-kebab')
    expect(kebab).toMatchObject({level: 'error', locations: [{physicalLocation: {artifactLocation: {uri: 'bad.json', uriBaseId: '%SRCROOT%'}, region: {startColumn: 13}}}]})
  })

  it('--previous: a changed input schema without a version bump is an error; with one it is fine; a removed skill is an error', async () => {
    const same = await lint('changed.json', '--previous', 'good.json')
    expect(same.code).toBe(1)
    expect(same.stdout).toMatch(/skills\[0\]\.inputSchema: the input schema of "translate-text" changed but the card version is still "1\.2\.0".* version-bump$/m)
    expect(same.stdout.trim().split('\n').at(-1)).toBe('✖ 1 error, 0 warnings, 0 infos — 2 cards checked')
    expect((await lint('bumped.json', '--previous', 'good.json')).code).toBe(0)
    const removed = await lint('removed.json', '--previous', 'good.json', '--json')
    expect(removed.code).toBe(1)
    expect(json(removed)).toMatchObject({previous: join(dir, 'good.json'), findings: [expect.objectContaining({rule: 'skill-removed', message: expect.stringContaining('"detect-language"')})]})
  })

  it('reads an agent base URL from /.well-known/agent.json, a card URL as given, and --previous from a URL', async () => {
    const base = await lint(agent.url, '--json')
    expect(base.code).toBe(0)
    expect(json(base)).toMatchObject({ok: true, root: `${agent.url}/.well-known/agent.json`, findings: []})
    expect(agent.requestsTo('/.well-known/agent.json').length).toBeGreaterThan(0)
    const card = await lint(`${agent.url}/.well-known/agent.json`)
    expect(card.code).toBe(0)
    const previous = await lint('changed.json', '--previous', `${agent.url}/`)
    expect(previous.code).toBe(1)
    expect(previous.stdout).toContain('version-bump')
  })

  it('a card that cannot be read or is not JSON: a clear message, exit 2', async () => {
    const missing = await lint('missing.json')
    expect(missing.code).toBe(2)
    expect(missing.errorText).toContain('Cannot read missing.json: no such file')
    const broken = await lint('broken.json', '--json')
    expect(broken.code).toBe(2)
    expect(json(broken).error).toMatchObject({code: 'usage_card_not_json', message: expect.stringContaining('broken.json is not JSON')})
    const notFound = await lint(`${agent.url}/nothing/card.json`)
    expect(notFound.code).toBe(2)
    expect(notFound.errorText).toContain('it answered 404')
    const previous = await lint('good.json', '--previous', 'missing.json')
    expect(previous.code).toBe(2)
    expect(previous.stdout).toBe('')
  })

  it('a folder is not a card', async () => {
    const result = await lint('.')
    expect(result.code).toBe(2)
    expect(result.errorText).toContain('not a file')
  })
})
