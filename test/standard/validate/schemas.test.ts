import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {SCHEMAS_DIR, getValidator} from '../../../src/lib/schemas.js'
import {CLUSTER, taskData, TODAY} from '../fixtures.js'

const STANDARD_SCHEMAS = ['mesh-json', 'cluster-yaml', 'task', 'initiative', 'workflow', 'run-log', 'doc', 'links-yaml', 'team-member', 'context', 'timeline-event', 'debug-event', 'queue']
const valid = (name: string, value: unknown) => getValidator(name)(value)

describe('standard schemas', () => {
  it.each(STANDARD_SCHEMAS)('%s has the mesh $id, a title and a description, and compiles', (name) => {
    const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, `${name}.schema.json`), 'utf8'))
    expect(schema.$id).toBe(`https://mesh.dev/schemas/${name}.schema.json`)
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(schema.title).toBeTruthy()
    expect(schema.description).toBeTruthy()
    expect(getValidator(name)).toBeTypeOf('function')
  })

  it('every property in the standard schemas has a description (editor help)', () => {
    const missing: string[] = []
    const visit = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return
      const record = node as Record<string, unknown>
      if (record.properties) {
        for (const [key, value] of Object.entries(record.properties as Record<string, Record<string, unknown>>)) {
          if (!value.description) missing.push(`${path}.${key}`)
          visit(value, `${path}.${key}`)
        }
      }
      if (record.items) visit(record.items, `${path}[]`)
    }
    for (const name of STANDARD_SCHEMAS) visit(JSON.parse(readFileSync(join(SCHEMAS_DIR, `${name}.schema.json`), 'utf8')), name)
    expect(missing).toEqual([])
  })

  it('are all present in schemas/', () => {
    const files = readdirSync(SCHEMAS_DIR)
    for (const name of STANDARD_SCHEMAS) expect(files).toContain(`${name}.schema.json`)
  })

  describe('mesh-json', () => {
    const base = {mesh_version: 1, hub: {url: 'https://hub.example.com', docs: 'https://hub.example.com/docs'}}
    const cluster = {channel_id: '6f1c2b9e-4a9d-4c3e-9b3a-2f6e1d7c8a90', name: 'Demo', visibility: 'public', admission: 'invite', invite: 'https://hub.example.com/i/x'}
    it('accepts the minimal and full shapes', () => {
      expect(valid('mesh-json', base)).toBe(true)
      expect(valid('mesh-json', {...base, cluster, directory: {agent_id: 'my_agent-1', description: 'x'}, messaging: {protocol: 'a2a'}})).toBe(true)
    })
    it('refuses other keys at any level, a wrong version, a bad uuid, a long name, a public invite on a private cluster', () => {
      expect(valid('mesh-json', {...base, extra: 1})).toBe(false)
      expect(valid('mesh-json', {...base, hub: {...base.hub, x: 1}})).toBe(false)
      expect(valid('mesh-json', {...base, mesh_version: 2})).toBe(false)
      expect(valid('mesh-json', {...base, cluster: {...cluster, channel_id: 'nope'}})).toBe(false)
      expect(valid('mesh-json', {...base, cluster: {...cluster, name: 'x'.repeat(81)}})).toBe(false)
      expect(valid('mesh-json', {...base, cluster: {...cluster, visibility: 'private'}})).toBe(false)
      expect(valid('mesh-json', {...base, cluster: {...cluster, visibility: 'private', invite: null}})).toBe(true)
      const {invite: _invite, ...noInvite} = cluster
      expect(valid('mesh-json', {...base, cluster: {...noInvite, visibility: 'private'}})).toBe(false)
      expect(valid('mesh-json', {...base, cluster: noInvite})).toBe(true)
      expect(valid('mesh-json', {...base, cluster: {...cluster, invite_methods: ['GET', 'GET']}})).toBe(false)
      expect(valid('mesh-json', {...base, directory: {agent_id: 'a b'}})).toBe(false)
      expect(valid('mesh-json', {...base, cluster: {...cluster, purpose: 'x'.repeat(301)}})).toBe(false)
    })
  })

  describe('cluster-yaml', () => {
    it('accepts the fixture cluster and task_prefix', () => expect(valid('cluster-yaml', CLUSTER)).toBe(true))
    it('requires general and project modules', () => {
      expect(valid('cluster-yaml', {...CLUSTER, modules: CLUSTER.modules.filter((module) => module.id !== 'general')})).toBe(false)
      expect(valid('cluster-yaml', {...CLUSTER, modules: CLUSTER.modules.filter((module) => module.id !== 'project')})).toBe(false)
    })
    it('checks enums, patterns and ranges', () => {
      expect(valid('cluster-yaml', {...CLUSTER, type: 'other'})).toBe(false)
      expect(valid('cluster-yaml', {...CLUSTER, id: 'Bad_Id'})).toBe(false)
      expect(valid('cluster-yaml', {...CLUSTER, transport: {endpoint: 'not a uri'}})).toBe(false)
      expect(valid('cluster-yaml', {...CLUSTER, snapshots: {retention_days: 366}})).toBe(false)
      expect(valid('cluster-yaml', {...CLUSTER, modules: [...CLUSTER.modules, {id: 'x1', kind: 'code', path: 'x', task_prefix: 'toolong'}]})).toBe(false)
      const member = {id: 'm', role: 'participant', pubkey: 'k', pubkey_fingerprint: 'SHA256:abc', authorized_at: TODAY, authorized_by: 'op'}
      expect(valid('cluster-yaml', {...CLUSTER, members: [member]})).toBe(true)
      expect(valid('cluster-yaml', {...CLUSTER, members: [{...member, pubkey_fingerprint: 'MD5:abc'}]})).toBe(false)
    })
    it('documents the spec defaults', () => {
      const schema = getValidator('cluster-yaml').schema as {properties: Record<string, {properties: Record<string, {default?: unknown}>}>}
      expect(schema.properties.admission.properties.admission_token_lifetime.default).toBe(3600)
      expect(schema.properties.architect.properties.port.default).toBe(5570)
      expect(schema.properties.snapshots.properties.retention_days.default).toBe(7)
      expect(schema.properties.transport.properties.workflow.default).toBe('websocket')
    })
  })

  describe('task', () => {
    it('accepts canonical and alias statuses and the loose id', () => {
      expect(valid('task', taskData())).toBe(true)
      expect(valid('task', taskData({status: 'in_progress'}))).toBe(true)
      expect(valid('task', taskData({id: 'feat-12'}))).toBe(true)
    })
    it('refuses bad ids, statuses, dates, orders', () => {
      expect(valid('task', taskData({id: '1abc'}))).toBe(false)
      expect(valid('task', taskData({status: 'wip'}))).toBe(false)
      expect(valid('task', taskData({created: '2026-13-01'}))).toBe(false)
      expect(valid('task', taskData({order: 10}))).toBe(false)
      expect(valid('task', taskData({completed_at: '2026-01-05'}))).toBe(false)
      expect(valid('task', taskData({completed_at: '2026-01-05T10:00:00Z'}))).toBe(true)
      const {title: _title, ...noTitle} = taskData()
      expect(valid('task', noTitle)).toBe(false)
    })
  })

  it('initiative: slug id, four statuses, no other keys', () => {
    const base = {id: 'launch', title: 'Launch', status: 'active', owner: 'a', created: TODAY, updated: TODAY}
    expect(valid('initiative', {...base, modules: ['api'], tags: ['x'], parent_initiative: 'root'})).toBe(true)
    expect(valid('initiative', {...base, status: 'next'})).toBe(false)
    expect(valid('initiative', {...base, id: 'Launch'})).toBe(false)
    expect(valid('initiative', {...base, priority: 'high'})).toBe(false)
  })

  it('workflow: W or P ids, scope and status enums', () => {
    const base = {id: 'W1', title: 'T', scope: 'project', status: 'stable', priority: 'high', owner: 'a', created: TODAY, updated: TODAY}
    expect(valid('workflow', base)).toBe(true)
    expect(valid('workflow', {...base, id: 'P3', needs_inputs: ['branch']})).toBe(true)
    expect(valid('workflow', {...base, id: 'X1'})).toBe(false)
    expect(valid('workflow', {...base, scope: 'repo'})).toBe(false)
  })

  it('run-log, doc, context, links-yaml', () => {
    expect(valid('run-log', {workflow: 'W1', date: TODAY, operator: 'o', agent: 'a', outcome: 'success'})).toBe(true)
    expect(valid('run-log', {workflow: 'W1', date: TODAY, operator: 'o', agent: 'a'})).toBe(false)
    const doc = {title: 'T', category: 'ops', updated: TODAY, owner: 'o', status: 'draft'}
    expect(valid('doc', doc)).toBe(true)
    expect(valid('doc', {...doc, category: 'misc'})).toBe(false)
    expect(valid('context', {title: 'T', updated: TODAY})).toBe(true)
    expect(valid('context', {title: 'T', updated: TODAY, owner: 'x'})).toBe(false)
    expect(valid('links-yaml', {version: 1, modules: [{id: 'api', prod: {provider: 'fly', url: 'https://x.fly.dev'}}]})).toBe(true)
    expect(valid('links-yaml', {version: 1, modules: [{id: 'api', prod: {provider: 'heroku'}}]})).toBe(false)
  })

  it('team-member: six fields + effort; retired fields allowed (warned by the validator), others refused', () => {
    const base = {id: 'dev', title: 'Developer', client: 'claude', model: 'opus', context: ['stack'], exposure: 'external', effort: 'high'}
    expect(valid('team-member', base)).toBe(true)
    expect(valid('team-member', {...base, owns: ['x'], pinned_order: 2})).toBe(true)
    expect(valid('team-member', {...base, token: 'abc'})).toBe(false)
    expect(valid('team-member', {...base, exposure: 'public'})).toBe(false)
    expect(valid('team-member', {...base, id: 'Dev'})).toBe(false)
  })

  it('timeline-event, debug-event, queue', () => {
    expect(valid('timeline-event', {ts: '2026-01-05T10:00:00Z', type: 'task.started', author: 'a', text: 't'})).toBe(true)
    expect(valid('timeline-event', {ts: '2026-01-05T10:00:00+02:00', type: 'task.started', author: 'a', text: 't'})).toBe(false)
    const event = {ts: '2026-01-05T10:00:00.123Z', src: 'daemon', lvl: 'info', tag: 'architect-wake.skipped', msg: 'm'}
    expect(valid('debug-event', event)).toBe(true)
    expect(valid('debug-event', {...event, tag: 'Bad_Tag'})).toBe(false)
    expect(valid('debug-event', {...event, ts: '2026-01-05T10:00:00Z'})).toBe(false)
    expect(valid('debug-event', {...event, msg: 'x'.repeat(4001)})).toBe(false)
    const item = {id: 'i1', text: 'hi', created_at: '2026-01-05T10:00:00Z', position: 0, status: 'queued'}
    expect(valid('queue', {conv: 'c1', version: 1, items: [item]})).toBe(true)
    expect(valid('queue', {conv: 'c1', version: 1, items: Array.from({length: 51}, () => item)})).toBe(false)
    expect(valid('queue', {conv: 'c1', version: 1, items: [{...item, status: 'lost'}]})).toBe(false)
  })
})
