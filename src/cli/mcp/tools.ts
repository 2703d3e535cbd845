/**
 * The tools of `mesh mcp` (issue 24): a small set, each a thin call of what
 * the commands already do — the daemon's routes (docs/daemon-api.md) when it
 * runs, else the standard library on the files for reads. Descriptions are
 * short on purpose: every client puts the whole `tools/list` into its
 * model's context (Task Master's 59 tools cost 45–64k tokens; this list is
 * kept under 5,000 — test/commands/mcp/).
 *
 * Input schemas are plain JSON Schema (the MCP spec's `inputSchema`), not zod
 * shapes: the server checks arguments itself against what the daemon checks
 * again, and the text a model reads is exactly what is written here.
 */
import type {McpProject} from './caller.js'

export interface McpTool {
  name: string
  description: string
  inputSchema: {type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties: false}
  /** MCP tool annotations: hints for the client (spec: ToolAnnotations). */
  annotations: {readOnlyHint: boolean; destructiveHint?: boolean; openWorldHint: false}
  run(project: McpProject, args: Record<string, unknown>): Promise<unknown>
}

const str = (description?: string) => ({type: 'string', ...(description ? {description} : {})})
const ids = (description: string) => ({type: 'array', items: {type: 'string'}, description})
const READ = {readOnlyHint: true, openWorldHint: false} as const
const WRITE = {readOnlyHint: false, destructiveHint: false, openWorldHint: false} as const

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)
const strings = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined)
const path = (value: string) => encodeURIComponent(value)

/** A JSON body without the keys left unset. */
const defined = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined))

export const MCP_TOOLS: McpTool[] = [
  {
    name: 'task_list',
    description: 'List tasks (id, title, status, priority, module, owner, initiative, depends_on). Filters combine.',
    inputSchema: {
      type: 'object',
      properties: {status: ids('any of these statuses'), module: str(), owner: str(), initiative: str(), archived: {type: 'boolean', description: 'include archived tasks'}},
      additionalProperties: false,
    },
    annotations: READ,
    async run(project, args) {
      const {listTasks} = await import('../../standard/tasks/index.js')
      const tasks = await listTasks(project.root, {status: strings(args.status), module: text(args.module), owner: text(args.owner), initiative: text(args.initiative), archived: args.archived === true})
      return {tasks: tasks.map(({id, title, status, priority, module, owner, initiative, depends_on, problem}) => defined({id, title, status, priority, module, owner, initiative, depends_on, problem: problem ?? undefined}))}
    },
  },
  {
    name: 'task_show',
    description: 'One task: frontmatter and markdown body.',
    inputSchema: {type: 'object', properties: {id: str()}, required: ['id'], additionalProperties: false},
    annotations: READ,
    async run(project, args) {
      const {showTask} = await import('../../standard/tasks/index.js')
      const {frontmatter, body, path: file, dispatchable} = await showTask(project.root, String(args.id))
      return {frontmatter, dispatchable, path: file, body}
    },
  },
  {
    name: 'task_create',
    description: 'Create a task in a module; returns its new id. Needs the daemon.',
    inputSchema: {
      type: 'object',
      properties: {
        module: str(),
        title: str(),
        status: str('default backlog'),
        priority: {type: 'string', enum: ['low', 'medium', 'high', 'critical']},
        owner: str(),
        initiative: str(),
        depends_on: ids('task ids'),
        tags: ids('tags'),
      },
      required: ['module', 'title'],
      additionalProperties: false,
    },
    annotations: WRITE,
    async run(project, args) {
      await project.assertMayWrite('task_create')
      const daemon = await project.requireDaemon('task_create')
      const {module, title, status, priority, owner, initiative} = args
      const body = defined({module, title, status, priority, owner, initiative, depends_on: strings(args.depends_on), tags: strings(args.tags), by: project.caller.by})
      const {id, path: file} = await daemon.call<{id: string; path: string}>('POST', '/tasks', body)
      return {id, path: file}
    },
  },
  {
    name: 'task_move',
    description: 'Set a task status: backlog, next, active, blocked, done or draft. Only the operator takes a task out of draft.',
    inputSchema: {type: 'object', properties: {id: str(), status: str()}, required: ['id', 'status'], additionalProperties: false},
    annotations: WRITE,
    async run(project, args) {
      await project.assertMayWrite('task_move')
      const daemon = await project.requireDaemon('task_move')
      return daemon.call('POST', `/tasks/${path(String(args.id))}/transition`, {status: args.status, by: project.caller.by})
    },
  },
  {
    name: 'context_read',
    description: 'The project context tree (.mesh/context/): without path, its files and word counts; with path, that file.',
    inputSchema: {type: 'object', properties: {path: str('e.g. context/stack.md')}, additionalProperties: false},
    annotations: READ,
    run: (project, args) => import('./context-read.js').then(({readContext}) => readContext(project, text(args.path))),
  },
  {
    name: 'validate',
    description: 'Check the project against the .mesh/ standard: errors and warnings with file and line.',
    inputSchema: {type: 'object', properties: {}, additionalProperties: false},
    annotations: READ,
    async run(project) {
      type Report = {ok: boolean; summary: unknown; findings: Array<{file: string; line?: number; rule: string; severity: string; message: string}>}
      const daemon = await project.daemon()
      const report = daemon ? await daemon.call<Report>('GET', '/validate') : await (await import('../../standard/validate/index.js')).validateProject(project.root)
      const {ok, summary, findings} = report as Report
      return {ok, summary, findings: findings.filter((finding) => finding.severity !== 'info').map(({file, line, rule, severity, message}) => ({file, line, rule, severity, message}))}
    },
  },
  {
    name: 'team_list',
    description: 'The team: each member id, title, client, exposure, access level.',
    inputSchema: {type: 'object', properties: {}, additionalProperties: false},
    annotations: READ,
    async run(project) {
      type Members = {members: Array<{id: string; title: string | null; client: string | null; exposure: string; access: string | null; problem: string | null}>}
      const daemon = await project.daemon()
      const {members} = daemon ? await daemon.call<Members>('GET', '/team') : ((await (await import('../../daemon/team/roster.js')).readRoster(project.reader)) as Members)
      return {members: members.map(({id, title, client, exposure, access, problem}) => defined({id, title, client, exposure, access, problem: problem ?? undefined}))}
    },
  },
  {
    name: 'team_ask',
    description: "Ask a team member and wait for its answer (a turn of its own). Give conv to continue a conversation. Needs the daemon.",
    inputSchema: {type: 'object', properties: {member: str(), text: str(), conv: str()}, required: ['member', 'text'], additionalProperties: false},
    annotations: {readOnlyHint: false, openWorldHint: false},
    run: (project, args) => import('./ask.js').then(({askMember}) => askMember(project, {member: String(args.member), text: String(args.text), conv: text(args.conv)})),
  },
  {
    name: 'team_delegate',
    description: 'Hand a brief to a team member without waiting; returns the request id. Needs the daemon.',
    inputSchema: {type: 'object', properties: {member: str(), brief: str(), task: str('task id'), initiative: str()}, required: ['member', 'brief'], additionalProperties: false},
    annotations: {readOnlyHint: false, openWorldHint: false},
    async run(project, args) {
      const daemon = await project.requireDaemon('team_delegate')
      const {member, brief, task, initiative} = args
      // A member's brief comes from its own conversation (its chain counts, the report wakes it); the operator's from none.
      const body = defined({member, brief, task, initiative, from_conv: project.caller.by === 'operator' ? undefined : (project.caller.conv ?? undefined)})
      const {conv, request_id, state} = await daemon.call<{conv: string; request_id: string; state: string}>('POST', '/chat/delegate', body)
      return {conv, request_id, state}
    },
  },
  {
    name: 'queue_add',
    description: "Queue a message in a conversation; it is sent when the conversation's current turn ends. Needs the daemon.",
    inputSchema: {type: 'object', properties: {conv: str(), text: str(), member: str('for a new conversation')}, required: ['conv', 'text'], additionalProperties: false},
    annotations: WRITE,
    async run(project, args) {
      await project.assertMayWrite('queue_add')
      const daemon = await project.requireDaemon('queue_add')
      return daemon.call('POST', `/chat/conv/${path(String(args.conv))}/queue`, defined({text: args.text, member: args.member}))
    },
  },
  {
    name: 'timeline_read',
    description: "A conversation's thread from the timeline: messages, answers, delegations.",
    inputSchema: {type: 'object', properties: {conv: str(), limit: {type: 'integer', minimum: 1, maximum: 1000, description: 'last N entries (default 100)'}}, required: ['conv'], additionalProperties: false},
    annotations: READ,
    run: (project, args) => import('./timeline-read.js').then(({readTimeline}) => readTimeline(project, String(args.conv), typeof args.limit === 'number' ? args.limit : 100)),
  },
]
