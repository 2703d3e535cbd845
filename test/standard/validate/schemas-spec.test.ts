import {describe, expect, it} from 'vitest'
import {getValidator} from '../../../src/lib/schemas.js'
import {CLUSTER, taskData, TODAY} from '../fixtures.js'

/**
 * The spec's field rules, one row each (spec: project standard, "Resources and
 * their fields"; DECISIONS "Project standard and daemon"): a value that must
 * pass and values that must not. `set` patches a copy of the base document.
 */
type Row = [description: string, patch: (doc: any) => void, ok: boolean]

const clone = <T>(value: T): T => structuredClone(value)
function table(schema: string, base: unknown, rows: Row[]) {
  describe(schema, () => {
    it('accepts the base document', () => expect(getValidator(schema)(base)).toBe(true))
    it.each(rows)('%s', (_description, patch, ok) => {
      const doc = clone(base)
      patch(doc)
      expect(getValidator(schema)(doc)).toBe(ok)
    })
  })
}

const bootstrap = {
  mesh_version: 1,
  hub: {url: 'https://hub.example.com', docs: 'https://hub.example.com/docs'},
  cluster: {channel_id: '6f1c2b9e-4a9d-4c3e-9b3a-2f6e1d7c8a90', name: 'Demo', visibility: 'public', admission: 'open', invite: 'https://hub.example.com/i/x', invite_expires_at: 0, invite_methods: ['POST', 'GET'], onboarding_doc: 'docs/join.md', owners: ['ana'], purpose: 'p', roles: ['dev'], viewer: 'https://hub.example.com/v/demo'},
  directory: {agent_id: 'abc', agent_card: 'https://a.example/card.json', capabilities: ['x'], description: 'd', profile: 'https://a.example'},
  messaging: {protocol: 'a2a'},
}
table('mesh-json', bootstrap, [
  ['hub.docs is required', (d) => delete d.hub.docs, false],
  ['hub.url is a uri', (d) => (d.hub.url = 'hub'), false],
  ['no other keys in cluster', (d) => (d.cluster.extra = 1), false],
  ['no other keys in directory', (d) => (d.directory.extra = 1), false],
  ['no other keys in messaging', (d) => (d.messaging.extra = 1), false],
  ['messaging.protocol is a string', (d) => (d.messaging.protocol = 1), false],
  ['cluster.name of 1 character', (d) => (d.cluster.name = 'x'), true],
  ['cluster.name not empty', (d) => (d.cluster.name = ''), false],
  ['cluster.name of 80 characters', (d) => (d.cluster.name = 'x'.repeat(80)), true],
  ['cluster.visibility enum', (d) => (d.cluster.visibility = 'secret'), false],
  ...['open', 'invite', 'invite+approval', 'allowlist', 'pubkey'].map((mode): Row => [`cluster.admission ${mode}`, (d) => (d.cluster.admission = mode), true]),
  ['cluster.admission enum', (d) => (d.cluster.admission = 'closed'), false],
  ['cluster.invite null', (d) => (d.cluster.invite = null), true],
  ['cluster.invite is a uri', (d) => (d.cluster.invite = 'not a uri'), false],
  ['cluster.invite_expires_at null', (d) => (d.cluster.invite_expires_at = null), true],
  ['cluster.invite_expires_at ≥ 0', (d) => (d.cluster.invite_expires_at = -1), false],
  ['cluster.invite_expires_at is an integer', (d) => (d.cluster.invite_expires_at = 1.5), false],
  ['cluster.invite_methods only POST and GET', (d) => (d.cluster.invite_methods = ['PUT']), false],
  ['cluster.purpose of 300', (d) => (d.cluster.purpose = 'x'.repeat(300)), true],
  ['cluster.viewer is a uri', (d) => (d.cluster.viewer = 'viewer'), false],
  ['cluster.channel_id required', (d) => delete d.cluster.channel_id, false],
  ['private cluster with invite null', (d) => Object.assign(d.cluster, {visibility: 'private', invite: null}), true],
  ['directory.agent_id of 3', (d) => (d.directory.agent_id = 'a_b'), true],
  ['directory.agent_id of 2', (d) => (d.directory.agent_id = 'ab'), false],
  ['directory.agent_id of 64', (d) => (d.directory.agent_id = 'a'.repeat(64)), true],
  ['directory.agent_id of 65', (d) => (d.directory.agent_id = 'a'.repeat(65)), false],
  ['directory.agent_id pattern', (d) => (d.directory.agent_id = 'a.b.c'), false],
  ['directory.description of 1000', (d) => (d.directory.description = 'x'.repeat(1000)), true],
  ['directory.description of 1001', (d) => (d.directory.description = 'x'.repeat(1001)), false],
  ['directory.agent_card is a uri', (d) => (d.directory.agent_card = 'card'), false],
  ['directory.profile is a uri', (d) => (d.directory.profile = 'me'), false],
])

const fullCluster = {
  ...clone(CLUSTER),
  description: 'd',
  transport: {workflow: 'nats', endpoint: 'wss://h.example/c', fallback: 'https://h.example/c'},
  bootstrap: {hub: 'https://h.example', install: 'https://h.example/i', operate: 'https://h.example/o', standard: 'https://h.example/s', spec: 'https://h.example/p'},
  git: {repo: 'git@h.example:r.git', branch: 'main', auto_pull: true, auto_commit: false},
  architect: {port: 5570},
  profile: {capabilities: [], visible_in_directory: false},
  admission: {mode: 'pubkey', approval: 'manual', github_users: ['ana'], admission_token_lifetime: 3600, max_pending_requests: 50},
  members: [{id: 'ana', role: 'coordinator', pubkey: 'ssh-ed25519 AAAA', pubkey_fingerprint: 'SHA256:abc', authorized_at: TODAY, authorized_by: 'ana', github_user: 'ana'}],
  snapshots: {enabled: true, retention_days: 7},
}
table('cluster-yaml', fullCluster, [
  ['version is 1', (d) => (d.version = 2), false],
  ['id of 41 characters', (d) => (d.id = 'a'.repeat(41)), false],
  ['name required', (d) => delete d.name, false],
  ...['websocket', 'sse', 'nats'].map((value): Row => [`transport.workflow ${value}`, (d) => (d.transport.workflow = value), true]),
  ['transport.workflow enum', (d) => (d.transport.workflow = 'grpc'), false],
  ['transport.endpoint required', (d) => delete d.transport.endpoint, false],
  ['transport.fallback is a uri', (d) => (d.transport.fallback = 'x'), false],
  ['bootstrap.install is a uri', (d) => (d.bootstrap.install = 'x'), false],
  ['git.auto_pull is a boolean', (d) => (d.git.auto_pull = 'yes'), false],
  ['architect.port is an integer', (d) => (d.architect.port = '5570'), false],
  ['profile.visible_in_directory is a boolean', (d) => (d.profile.visible_in_directory = 1), false],
  ['admission.mode enum', (d) => (d.admission.mode = 'token'), false],
  ['admission.mode open', (d) => (d.admission.mode = 'open'), true],
  ['admission.approval auto-on-github', (d) => (d.admission.approval = 'auto-on-github'), true],
  ['admission.approval enum', (d) => (d.admission.approval = 'sometimes'), false],
  ['admission.max_pending_requests is an integer', (d) => (d.admission.max_pending_requests = 1.5), false],
  ['members[].role enum', (d) => (d.members[0].role = 'owner'), false],
  ['members[].authorized_by required', (d) => delete d.members[0].authorized_by, false],
  ['members[].authorized_at is a date', (d) => (d.members[0].authorized_at = '2026-13-01'), false],
  ['modules at least one', (d) => (d.modules = []), false],
  ['modules[].kind enum', (d) => (d.modules[5].kind = 'lib'), false],
  ['modules[].kind required', (d) => delete d.modules[5].kind, false],
  ['modules[].id pattern', (d) => (d.modules[5].id = 'A'), false],
  ['snapshots.retention_days 1', (d) => (d.snapshots.retention_days = 1), true],
  ['snapshots.retention_days 0', (d) => (d.snapshots.retention_days = 0), false],
  ['snapshots.retention_days 365', (d) => (d.snapshots.retention_days = 365), true],
  // mesh additions (docs/standard.md, issue 20): architect.auto and architect.min_interval_seconds.
  ['architect.auto true', (d) => (d.architect = {auto: true}), true],
  ['architect.auto a string', (d) => (d.architect = {auto: 'yes'}), false],
  ['architect.min_interval_seconds 0', (d) => (d.architect = {min_interval_seconds: 0}), true],
  ['architect.min_interval_seconds -1', (d) => (d.architect = {min_interval_seconds: -1}), false],
  ['architect.min_interval_seconds 1.5', (d) => (d.architect = {min_interval_seconds: 1.5}), false],
])

describe('cluster-yaml defaults (spec cluster.yaml table)', () => {
  const props = (getValidator('cluster-yaml').schema as any).properties
  it.each([
    ['transport', 'workflow', 'websocket'],
    ['git', 'branch', 'main'],
    ['git', 'auto_pull', true],
    ['git', 'auto_commit', false],
    ['architect', 'port', 5570],
    ['profile', 'capabilities', []],
    ['profile', 'visible_in_directory', false],
    ['admission', 'mode', 'pubkey'],
    ['admission', 'approval', 'manual'],
    ['admission', 'admission_token_lifetime', 3600],
    ['admission', 'max_pending_requests', 50],
    ['snapshots', 'enabled', true],
    ['snapshots', 'retention_days', 7],
    ['architect', 'auto', false],
    ['architect', 'min_interval_seconds', 60],
  ])('%s.%s defaults to %j', (block, key, value) => {
    expect(props[block].properties[key].default).toEqual(value)
  })
  it('team-member exposure defaults to internal', () => {
    expect((getValidator('team-member').schema as any).properties.exposure.default).toBe('internal')
  })
})

table('task', taskData({tags: ['a'], depends_on: ['API0'], initiative: 'launch', parent_initiative: 'root', order: 0, effort: 'S', completed_at: '2026-01-05T10:00:00Z', resolved_by: 'dev', resolved_by_conv: 'c1', commit_shas: ['0a1b2c3']}), [
  ...['backlog', 'next', 'active', 'blocked', 'done', 'draft', 'planned', 'in-progress', 'in_progress', 'doing', 'cancelled', 'pending-operator'].map((status): Row => [`status ${status}`, (d) => (d.status = status), true]),
  ...['low', 'medium', 'high', 'critical'].map((priority): Row => [`priority ${priority}`, (d) => (d.priority = priority), true]),
  ['priority enum', (d) => (d.priority = 'urgent'), false],
  ['order 9', (d) => (d.order = 9), true],
  ['order -1', (d) => (d.order = -1), false],
  ['depends_on ids have the task id shape', (d) => (d.depends_on = ['1x']), false],
  ['updated is a date', (d) => (d.updated = 'today'), false],
  ['commit_shas are hex', (d) => (d.commit_shas = ['xyz']), false],
  ['category is a module id', (d) => (d.category = 'API'), false],
  ['owner required', (d) => delete d.owner, false],
])

const workflow = {id: 'W1', title: 'T', scope: 'module', status: 'draft', priority: 'low', owner: 'a', created: TODAY, updated: TODAY, tags: ['x'], needs_inputs: true}
table('workflow', workflow, [
  ...['cluster', 'project', 'module'].map((scope): Row => [`scope ${scope}`, (d) => (d.scope = scope), true]),
  ...['draft', 'stable', 'deprecated'].map((status): Row => [`status ${status}`, (d) => (d.status = status), true]),
  ['status enum', (d) => (d.status = 'active'), false],
  ['protocol id P7', (d) => (d.id = 'P7'), true],
  ...['id', 'title', 'scope', 'status', 'priority', 'owner', 'created', 'updated'].map((key): Row => [`${key} required`, (d) => delete d[key], false]),
])

table('run-log', {workflow: 'P2', date: TODAY, operator: 'o', agent: 'a', outcome: 'success'}, [
  ...['workflow', 'date', 'operator', 'agent', 'outcome'].map((key): Row => [`${key} required`, (d) => delete d[key], false]),
  ['workflow is a runbook id', (d) => (d.workflow = 'X1'), false],
  ['date is a date', (d) => (d.date = '05/01/2026'), false],
])

table('doc', {title: 'T', category: 'architecture', updated: TODAY, owner: 'o', status: 'stable', tags: ['t'], related: ['ops/x.md']}, [
  ...['architecture', 'product', 'conventions', 'deploy', 'security', 'ops', 'modules', 'governance'].map((category): Row => [`category ${category}`, (d) => (d.category = category), true]),
  ['status enum', (d) => (d.status = 'final'), false],
  ...['title', 'category', 'updated', 'owner', 'status'].map((key): Row => [`${key} required`, (d) => delete d[key], false]),
])

const links = {
  version: 1,
  modules: [{id: 'api', local: {url: 'http://127.0.0.1:3000', command: 'npm start', health: '/health'}, prod: {url: 'https://api.example.com', provider: 'fly', project: 'p', region: 'fra', deploy_command: 'fly deploy', deployed_version: '1.2.0', deployed_sha: 'abc', deployed_at: '2026-01-05T10:00:00Z', deployed_by: 'ana'}, repo: {branch: 'main', head_sha: 'abc', version: '1.2.0'}, notes: 'n'}],
}
table('links-yaml', links, [
  ...['fly', 'cloudflare-pages', 'cloudflare-workers', 'vercel', 'render', 'self-hosted', 'other'].map((provider): Row => [`prod.provider ${provider}`, (d) => (d.modules[0].prod.provider = provider), true]),
  ['prod.provider enum', (d) => (d.modules[0].prod.provider = 'heroku'), false],
  ['version is 1', (d) => (d.version = 2), false],
  ['modules required', (d) => delete d.modules, false],
  ['modules[].id required', (d) => delete d.modules[0].id, false],
  ['modules[].id is a module id', (d) => (d.modules[0].id = 'API'), false],
  ['prod.deployed_at is a date-time', (d) => (d.modules[0].prod.deployed_at = 'yesterday'), false],
  ['local.url is a uri', (d) => (d.modules[0].local.url = 'localhost'), false],
])

table('team-member', {id: 'developer', title: 'Developer', client: 'claude', model: 'opus', context: ['stack'], exposure: 'internal'}, [
  ...['default', 'low', 'medium', 'high', 'max'].map((effort): Row => [`effort ${effort}`, (d) => (d.effort = effort), true]),
  ['effort enum', (d) => (d.effort = 'extreme'), false],
  ['exposure external', (d) => (d.exposure = 'external'), true],
  ['id of one character', (d) => (d.id = 'd'), false],
  ['id of 32 characters', (d) => (d.id = 'd'.repeat(32)), true],
  ['id of 33 characters', (d) => (d.id = 'd'.repeat(33)), false],
  ['context is a list', (d) => (d.context = 'stack'), false],
  ...['name', 'kind', 'required', 'agent_type', 'pinned_order', 'owns', 'never', 'delegates_to', 'refs', 'credentials_hint'].map((field): Row => [`retired ${field} accepted`, (d) => (d[field] = 'x'), true]),
  ['a token never in the card', (d) => (d.token = 'x'), false],
])

table('context', {title: 'Overview', updated: TODAY}, [
  ['title required', (d) => delete d.title, false],
  ['only title and updated', (d) => (d.tags = ['x']), false],
])

table('timeline-event', {ts: '2026-01-05T10:00:00Z', type: 'chat.assistant.delta', author: 'a', text: 't'}, [
  ...['ts', 'type', 'author', 'text'].map((key): Row => [`${key} required`, (d) => delete d[key], false]),
  ['ts with milliseconds', (d) => (d.ts = '2026-01-05T10:00:00.123Z'), true],
])

table('debug-event', {ts: '2026-01-05T10:00:00.123Z', src: 'Architect IDE', lvl: 'warn', tag: 'transport.reconnect', msg: 'm', conv: 'c', agent_id: 'a', data: {k: 1}, extra: 'ignored'}, [
  ...['daemon', 'Architect IDE', 'agent'].map((src): Row => [`src ${src}`, (d) => (d.src = src), true]),
  ['src enum', (d) => (d.src = 'IDE'), false],
  ...['debug', 'info', 'warn', 'error'].map((lvl): Row => [`lvl ${lvl}`, (d) => (d.lvl = lvl), true]),
  ['lvl enum', (d) => (d.lvl = 'trace'), false],
  ...['boot', 'log', 'chat-dispatch', 'subagent-final', 'architect-wake', 'architect-wake.skipped', 'architect-wake.failed', 'init-archive', 'http', 'ux.run-all', 'ux.stop-architect', 'ux.validation', 'transport.reconnect'].map((tag): Row => [`canonical tag ${tag}`, (d) => (d.tag = tag), true]),
  ['msg of 4000', (d) => (d.msg = 'x'.repeat(4000)), true],
  ['msg of 4001', (d) => (d.msg = 'x'.repeat(4001)), false],
  ['data is an object', (d) => (d.data = 'x'), false],
  ...['ts', 'src', 'lvl', 'tag', 'msg'].map((key): Row => [`${key} required`, (d) => delete d[key], false]),
])

const queueItem = {id: 'i1', text: 'hi', created_at: '2026-01-05T10:00:00Z', position: 0, status: 'sent', sent_at: '2026-01-05T10:01:00Z', failed_reason: 'r'}
table('queue', {conv: 'c1', version: 3, items: [queueItem]}, [
  ...['queued', 'sending', 'sent', 'failed', 'cancelled'].map((status): Row => [`status ${status}`, (d) => (d.items[0].status = status), true]),
  ['status enum', (d) => (d.items[0].status = 'lost'), false],
  ...['id', 'text', 'created_at', 'position', 'status'].map((key): Row => [`items[].${key} required`, (d) => delete d.items[0][key], false]),
  ['text of 65,537 characters', (d) => (d.items[0].text = 'x'.repeat(65_537)), false],
  ['position ≥ 0', (d) => (d.items[0].position = -1), false],
  ['sent_at is a date-time', (d) => (d.items[0].sent_at = 'now'), false],
  ['50 items', (d) => (d.items = Array.from({length: 50}, () => queueItem)), true],
  ...['conv', 'version', 'items'].map((key): Row => [`${key} required`, (d) => delete d[key], false]),
])
