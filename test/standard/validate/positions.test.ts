import {describe, expect, it} from 'vitest'
import {jsonErrorOffset} from '../../../src/standard/project/json-error.js'
import {findingsFor, ofRule} from './helpers.js'

/** 1-based line and column of the first occurrence of `needle` in `text`. */
function positionOf(text: string, needle: string, occurrence = 1): {line: number; column: number} {
  let at = -1
  for (let count = 0; count < occurrence; count++) at = text.indexOf(needle, at + 1)
  const before = text.slice(0, at)
  return {line: before.split('\n').length, column: at - before.lastIndexOf('\n')}
}

describe('finding positions', () => {
  it('frontmatter values and unknown keys, offset by the opening fence', async () => {
    const text = '---\nid: API2\ntitle: T\nstatus: wip\npriority: urgent\nowner: a\ncategory: api\ncreated: 2026-01-05\nupdated: 05/01/2026\n---\n\n## Scope\n## Done when\n## Files\n'
    const findings = ofRule(await findingsFor({'.mesh/modules/api/tasks/API2-xx.md': text}), 'schema')
    const at = (needle: string) => findings.find((finding) => finding.message.includes(needle))
    expect(at('"wip"')).toMatchObject(positionOf(text, 'wip'))
    expect(at('"urgent"')).toMatchObject(positionOf(text, 'urgent'))
    expect(at('05/01/2026')).toMatchObject(positionOf(text, '05/01/2026'))
  })

  it('values reached through the full YAML parser (flow maps, quoted strings)', async () => {
    const text = '---\nid: "API2"\ntitle: \'T\'\nstatus: {bad: 1}\npriority: medium\nowner: a\ncategory: api\ncreated: 2026-01-05\nupdated: 2026-01-05\n---\n\n## Scope\n## Done when\n## Files\n'
    const [finding] = ofRule(await findingsFor({'.mesh/modules/api/tasks/API2-xx.md': text}), 'schema')
    expect(finding).toMatchObject(positionOf(text, '{bad'))
  })

  it('nested YAML: an unknown key points at the key, a bad value at the value', async () => {
    const text = 'version: 1\nid: demo\ntype: dev\nname: Demo\ntransport:\n  endpoint: wss://x.example\n  workflow: carrier-pigeon\nmodules:\n  - id: project\n    kind: area\n  - id: general\n    kind: area\n    parent: project\n'
    const findings = await findingsFor({'.mesh/public/cluster.yaml': text})
    expect(ofRule(findings, 'schema').find((finding) => finding.message.includes('carrier-pigeon'))).toMatchObject(positionOf(text, 'carrier-pigeon'))
    const json = '{\n  "mesh_version": 1,\n  "hub": {\n    "url": "https://h.example",\n    "docs": "https://h.example/d",\n    "extra": 1\n  }\n}\n'
    const [unknown] = ofRule(await findingsFor({'mesh.json': json}), 'schema')
    expect(unknown).toMatchObject(positionOf(json, '"extra"'))
  })

  it('a missing required key points at its object', async () => {
    const json = '{\n  "mesh_version": 1,\n  "hub": {\n    "url": "https://h.example"\n  }\n}\n'
    const [missing] = ofRule(await findingsFor({'mesh.json': json}), 'schema')
    expect(missing).toMatchObject({message: 'missing required key "docs" in hub', ...positionOf(json, '{', 2)})
  })

  it('JSONL records: the record line, the column within it', async () => {
    const line = '{"ts":"2026-01-05T10:00:00.123Z","src":"daemon","lvl":"info","tag":"Bad Tag","msg":"m"}'
    const findings = await findingsFor({'.mesh/.runtime/debug.jsonl': `{"ts":"2026-01-05T10:00:00.123Z","src":"daemon","lvl":"info","tag":"boot","msg":"m"}\n\n${line}\n`})
    expect(ofRule(findings, 'schema')).toMatchObject([{line: 3, column: line.indexOf('"Bad Tag"') + 1}])
  })

  it('broken JSON: the offending character even when V8 gives no position', async () => {
    const json = '{\n  "mesh_version": 1,\n  "hub": }\n'
    expect(ofRule(await findingsFor({'mesh.json': json}), 'parse')).toMatchObject([positionOf(json, '}')])
  })
})

describe('jsonErrorOffset', () => {
  it.each([
    ['{"a": }', 6],
    ['{"a": 1,}', 8],
    ['[1, 2', 5],
    ['{"a": tru}', 6],
    ['{"a": "x\u0001"}', 8],
    ['{"a": 1} x', 9],
    ['{"a": [1, {"b": null}], "c": -1.5e3}', 36],
  ])('%j → %i', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset)
  })
  it('nesting deeper than the stack gives a position, not NaN', () => {
    const offset = jsonErrorOffset('['.repeat(1_000_000))
    expect(Number.isInteger(offset)).toBe(true)
    expect(offset).toBeGreaterThan(0)
    expect(offset).toBeLessThanOrEqual(1_000_000)
  })
})
