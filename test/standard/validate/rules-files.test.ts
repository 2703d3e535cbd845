import {describe, expect, it} from 'vitest'
import {DENY_LIST, MARKERS} from '../../../src/standard/constants.js'
import {brief, findingsFor, ofRule} from './helpers.js'

describe('file rules', () => {
  it('the minimal repo has zero findings', async () => {
    expect(await findingsFor()).toEqual([])
  })

  it('parse: broken YAML in frontmatter is a finding with its line, never a crash', async () => {
    const findings = await findingsFor({'.mesh/modules/api/tasks/API2-xx.md': '---\nid: API2\ntitle: a: b\n---\n'})
    expect(brief(ofRule(findings, 'parse'))).toEqual(['parse@.mesh/modules/api/tasks/API2-xx.md:3'])
    // An unclosed flow sequence is reported where the yaml parser gives up: the line after it.
    const unclosed = await findingsFor({'.mesh/modules/api/tasks/API2-xx.md': '---\nid: API2\ntitle: [unclosed\n---\n'})
    expect(brief(unclosed)).toEqual(['parse@.mesh/modules/api/tasks/API2-xx.md:4'])
  })

  it('parse: unterminated frontmatter, duplicate keys, broken JSON, broken cluster.yaml, broken JSONL line', async () => {
    const findings = await findingsFor({
      '.mesh/modules/api/tasks/API2-xx.md': '---\nid: API2\n',
      '.mesh/modules/api/tasks/API3-yy.md': '---\nid: API3\nid: API4\n---\n',
      'mesh.json': '{\n  "mesh_version": 1,\n  "hub": }\n',
      '.mesh/public/links.yaml': 'version: 1\nmodules: [\n',
      '.mesh/.runtime/debug.jsonl': '{"ts":"2026-01-05T10:00:00.123Z","src":"daemon","lvl":"info","tag":"boot","msg":"m"}\n{oops\n',
    })
    expect(brief(ofRule(findings, 'parse'))).toEqual([
      'parse@.mesh/.runtime/debug.jsonl:2',
      'parse@.mesh/modules/api/tasks/API2-xx.md:1',
      'parse@.mesh/modules/api/tasks/API3-yy.md:3',
      'parse@.mesh/public/links.yaml:3',
      'parse@mesh.json:3',
    ])
    // A runtime log is never committed: its broken line is a warning (issue 19), the others errors.
    expect(ofRule(findings, 'parse').map((finding) => finding.severity)).toEqual(['warning', 'error', 'error', 'error', 'error'])
  })

  it('schema: every ajv error becomes a finding naming the key', async () => {
    const findings = await findingsFor({'.mesh/modules/api/tasks/API2-xx.md': '---\nid: API2\ntitle: X\nstatus: wip\npriority: medium\nowner: a\ncategory: api\ncreated: 2026-01-05\n---\n\n## Scope\n## Done when\n## Files\n'})
    const messages = ofRule(findings, 'schema').map((finding) => finding.message)
    expect(messages).toEqual(expect.arrayContaining([expect.stringMatching(/status "wip" must be one of "backlog"/), 'missing required key "updated"']))
  })

  it('schema: unknown keys where the spec forbids them list the allowed keys', async () => {
    const findings = await findingsFor({'mesh.json': '{"mesh_version": 1, "hub": {"url": "https://h.example", "docs": "https://h.example/d"}, "extra": true}'})
    expect(ofRule(findings, 'schema')[0].message).toBe('unknown key "extra" (allowed: mesh_version, hub, cluster, directory, messaging)')
  })

  it('schema: JSONL records are each validated (warnings in a runtime log)', async () => {
    const findings = await findingsFor({'.mesh/.runtime/debug.jsonl': '{"ts":"2026-01-05T10:00:00.123Z","src":"daemon","lvl":"info","tag":"boot","msg":"m"}\n{"ts":"yesterday","src":"daemon","lvl":"info","tag":"boot","msg":"m"}\n'})
    expect(brief(ofRule(findings, 'schema'))).toEqual(['schema@.mesh/.runtime/debug.jsonl:2'])
    expect(ofRule(findings, 'schema')[0].severity).toBe('warning')
  })

  it('frontmatter-required: a task without frontmatter', async () => {
    const findings = await findingsFor({'.mesh/modules/api/tasks/API2-xx.md': '# Just a title\n'})
    expect(brief(findings)).toEqual(['frontmatter-required@.mesh/modules/api/tasks/API2-xx.md:1'])
  })

  it('required-file: mesh.json and cluster.yaml (errors), STANDARD_VERSION (warning)', async () => {
    const findings = await findingsFor({}, (repo) => repo.remove('mesh.json').remove('.mesh/public/cluster.yaml').remove('.mesh/STANDARD_VERSION'))
    expect(ofRule(findings, 'required-file').map((finding) => `${finding.file}:${finding.severity}`)).toEqual([
      '.mesh/STANDARD_VERSION:warning',
      '.mesh/public/cluster.yaml:error',
      'mesh.json:error',
    ])
  })

  it('standard-version: one positive integer', async () => {
    expect(brief(await findingsFor({'.mesh/STANDARD_VERSION': 'v38\n'}))).toEqual(['standard-version@.mesh/STANDARD_VERSION:1'])
    expect(await findingsFor({'.mesh/STANDARD_VERSION': '37'})).toEqual([])
  })

  it('unknown-file: info in a defined place, warning where a folder holds one kind only', async () => {
    const findings = await findingsFor({'.mesh/public/notes.txt': 'x', '.mesh/modules/api/tasks/todo.txt': 'x', '.mesh/modules/api/tasks/.gitkeep': ''})
    expect(ofRule(findings, 'unknown-file').map((finding) => `${finding.file}:${finding.severity}`)).toEqual([
      '.mesh/modules/api/tasks/todo.txt:warning',
      '.mesh/public/notes.txt:info',
    ])
  })

  it('instructions-markers: missing, duplicated and out-of-order markers', async () => {
    const {preambleBegin, preambleEnd, operatorBegin, operatorEnd} = MARKERS
    expect(await findingsFor({'.mesh/public/AGENT_INSTRUCTIONS.md': `${preambleBegin}\n${preambleEnd}\n${operatorBegin}\n${operatorEnd}\n`})).toEqual([])
    const missing = await findingsFor({'.mesh/public/AGENT_INSTRUCTIONS.md': `${preambleBegin}\n${preambleEnd}\n${operatorBegin}\n`})
    expect(ofRule(missing, 'instructions-markers')[0].message).toContain(operatorEnd)
    const twice = await findingsFor({'.mesh/public/AGENT_INSTRUCTIONS.md': `${preambleBegin}\n${preambleEnd}\n${operatorBegin}\n${operatorEnd}\n${operatorEnd}\n`})
    expect(brief(twice)).toEqual(['instructions-markers@.mesh/public/AGENT_INSTRUCTIONS.md:5'])
    const order = await findingsFor({'.mesh/public/AGENT_INSTRUCTIONS.md': `${operatorBegin}\n${operatorEnd}\n${preambleBegin}\n${preambleEnd}\n`})
    expect(ofRule(order, 'instructions-markers').length).toBeGreaterThan(0)
  })

  it('resources-marker: RESOURCES.md keeps its end marker', async () => {
    expect(brief(await findingsFor({'.mesh/public/RESOURCES.md': '# Resources\n'}))).toEqual(['resources-marker@.mesh/public/RESOURCES.md:1'])
  })

  it('gitignore-deny: each missing deny-list entry, and a missing .gitignore', async () => {
    const partial = await findingsFor({'.gitignore': DENY_LIST.filter((entry) => entry !== '.mesh/credentials/').join('\n')})
    expect(ofRule(partial, 'gitignore-deny').map((finding) => finding.message)).toEqual([expect.stringContaining('.mesh/credentials/')])
    const missing = await findingsFor({}, (repo) => repo.remove('.gitignore'))
    expect(brief(missing)).toEqual(['gitignore-deny@.gitignore:1'])
  })

  it('gitignore-deny: globs, leading slashes and folder forms count; a later negation un-ignores', async () => {
    const lines = ['/.mesh/.runtime', '.mesh/credentials/**', '.mesh/agents/*', '.mesh/timeline/', '.mesh/log/', '.mesh/queues/', '.mesh/uploads/', '.mesh/snapshots/', '.mesh/state.json', '.mesh/roadmap/state.*', '.mesh/scripts/', '.mesh/workflows/log/', '.mesh/architect/']
    expect(await findingsFor({'.gitignore': lines.join('\n')})).toEqual([])
    const negated = await findingsFor({'.gitignore': [...lines, '!.mesh/state.json'].join('\n')})
    expect(ofRule(negated, 'gitignore-deny').map((finding) => finding.message)).toEqual([expect.stringContaining('.mesh/state.json')])
  })

  it('queue-item-size: a queue item text over 64 KB (bytes)', async () => {
    const item = (text: string) => ({id: 'i1', text, created_at: '2026-01-05T10:00:00Z', position: 0, status: 'queued'})
    const ok = await findingsFor({'.mesh/queues/c1.json': JSON.stringify({conv: 'c1', version: 1, items: [item('hi')]})})
    expect(ok).toEqual([])
    const big = await findingsFor({'.mesh/queues/c1.json': JSON.stringify({conv: 'c1', version: 1, items: [item('é'.repeat(40_000))]})})
    expect(brief(big)).toEqual(['queue-item-size@.mesh/queues/c1.json:1'])
  })
})

describe('secret', () => {
  const cases: Array<[string, string]> = [
    ['API key (sk-…)', 'key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345'],
    ['GitHub token', 'token ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'],
    ['AWS access key id', 'aws AKIAIOSFODNN7EXAMPLE'],
    ['AWS secret access key', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    ['bearer token', 'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9abc"'],
    ['private key', '-----BEGIN OPENSSH PRIVATE KEY-----'],
    ['hex API key', 'api_key: 0123456789abcdef0123456789abcdef'],
    ['Slack token', 'xoxb-1234567890-abcdefghij'],
    ['JSON Web Token', 'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
    ['mesh cluster token', 'join with ck_Qx3v-9ZkPw2LmN8rT5yU1aB4cD7eF0gH6iJ_kLoMnPq'],
    ['mesh cluster token', 'admin ak_Zz9y8X7w6V5u4T3s2R1q0P-o_N9m8L7k6J5i4H3g2Fe'],
    ['mesh registry admin key', 'key madm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE'],
    ['mesh post delete token', 'delete with dt_abcdefghijklmnopqrstuvwx27'],
  ]
  it.each(cases)('finds a %s and never prints it whole', async (name, line) => {
    const findings = await findingsFor({'.mesh/docs/ops/notes.md': `---\ntitle: Notes\ncategory: ops\nupdated: 2026-01-05\nowner: a\nstatus: draft\n---\n\nSome text\n${line}\n`})
    const secrets = ofRule(findings, 'secret')
    expect(secrets.length).toBeGreaterThan(0)
    expect(secrets[0]).toMatchObject({file: '.mesh/docs/ops/notes.md', line: 10, severity: 'error'})
    expect(secrets.map((finding) => finding.message).join(' ')).toContain(name)
    const token = line.split(/\s+/).pop() as string
    expect(JSON.stringify(findings)).not.toContain(token.slice(0, 24))
  })

  it('ignores placeholders, lines marked mesh:allow-secret and deny-listed files', async () => {
    const findings = await findingsFor({
      '.mesh/public/README.md': 'Use sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxx as the key.\nghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 <!-- mesh:allow-secret -->\nBearer <portal-token>\n',
      '.mesh/queues/c1.json': JSON.stringify({conv: 'c1', version: 1, items: [{id: 'i', text: 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345', created_at: '2026-01-05T10:00:00Z', position: 0, status: 'queued'}]}),
    })
    expect(findings).toEqual([])
  })

  it('scans mesh.json too', async () => {
    const findings = await findingsFor({'mesh.json': JSON.stringify({mesh_version: 1, hub: {url: 'https://h.example', docs: 'https://h.example/d'}, messaging: {protocol: 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'}})})
    expect(brief(findings)).toEqual(['secret@mesh.json:1'])
  })
})
