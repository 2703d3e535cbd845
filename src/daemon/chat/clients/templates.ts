/**
 * How the daemon runs each assistant CLI (spec: a turn runs through the
 * member's `client`): a command template per client. Three assistant CLIs
 * ship as defaults, plus the built-in deterministic `script` client. A
 * machine overrides or adds clients in the user's own
 * `~/.config/mesh/clients.yaml`, or in the project's `.mesh/agents/clients.yaml`
 * once the operator trusted its exact bytes (`mesh trust`); sources.ts.
 * docs/daemon.md, Clients.
 *
 * No project or asker text ever goes into an argument (issue 18: every local
 * user can read a process's arguments in /proc/<pid>/cmdline). The prompt
 * goes to stdin; the system prompt goes ahead of it on stdin, or into a
 * private file (mode 0600 in a 0700 folder, removed when the turn ends) for a
 * CLI that reads it from a file it is named by. So the placeholders are
 * `{model}`, `{session}` (the session: the one the client confirmed, on a
 * resumed turn; else a fresh uuid), `{system_file}` (the path
 * of that private system-prompt file), `{prompt_file}` (the same for the
 * prompt, for a CLI that reads no stdin), `{node}`, `{script_client}`,
 * `{script}`; `{effort}` expands to the `effort` arguments of the member's
 * effort, or to nothing, and `{access}` to the `access` arguments of the
 * turn's access level (access.ts). `{system}` and `{prompt}` (the texts
 * themselves) are refused.
 *
 * How each CLI is driven, as its own documentation says:
 * - Claude Code (https://code.claude.com/docs/en/cli-reference, "CLI flags"
 *   and "System prompt flags"): `-p` prints the answer and exits, reading the
 *   prompt from stdin when it is piped (`cat file | claude -p`);
 *   `--append-system-prompt-file <path>` loads text from a file and appends it
 *   to the default system prompt (documented for print mode); `--session-id
 *   <uuid>` names a new session, `--resume <id>` continues it. Its structured
 *   stream (https://code.claude.com/docs/en/headless, "Stream responses"):
 *   `--output-format stream-json --verbose --include-partial-messages` (print
 *   mode refuses stream-json without `--verbose`). Access: `--permission-mode`
 *   (`default`: a tool that would ask is refused in print mode; `acceptEdits`;
 *   `bypassPermissions`) and `--disallowedTools`, whose rules win over any
 *   allow rule, a project's `.claude/settings.json` included
 *   (https://code.claude.com/docs/en/permissions).
 * - Codex (`codex exec --help`; openai/codex codex-rs/exec/src/cli.rs and
 *   docs/exec.md): `codex exec [OPTIONS] [PROMPT]`, where a PROMPT of `-` (or
 *   none) reads the instructions from stdin; `-m/--model`, `-c key=value`,
 *   `--skip-git-repo-check`, `--json` (the JSONL event stream), `codex exec
 *   [OPTIONS] resume <SESSION_ID> [PROMPT]` continues a thread (its options
 *   before `resume`). Access: `--sandbox read-only|workspace-write|
 *   danger-full-access`; exec never asks for approval (docs/exec.md: "In
 *   non-interactive mode, Codex does not ask for command or edit approvals").
 * - Gemini CLI (https://geminicli.com/docs/cli/headless and
 *   docs/cli/cli-reference.md of google-gemini/gemini-cli): when stdin is not a
 *   terminal the CLI runs headless and reads its prompt from stdin
 *   (`echo "…" | gemini`); `--prompt` is only appended to that input, so it is
 *   not used; `-m/--model`; `--output-format stream-json`; `--resume <session
 *   id>` (docs/cli/session-management.md). Access: `--approval-mode`
 *   (`default`: a tool that would ask is refused headless —
 *   docs/reference/policy-engine.md, "ask_user … in non-interactive mode, this
 *   is treated as deny"; `auto_edit`; `yolo`).
 */
import {MEMBER_ACCESS_LEVELS, MEMBER_EFFORTS} from '../../../protocol/team.js'
import type {StreamFormat} from './streams/types.js'

export type Effort = (typeof MEMBER_EFFORTS)[number]
export const EFFORTS: readonly Effort[] = MEMBER_EFFORTS
export type AccessLevel = (typeof MEMBER_ACCESS_LEVELS)[number]
export const ACCESS_LEVELS: readonly AccessLevel[] = MEMBER_ACCESS_LEVELS

export interface ClientTemplate {
  /** argv of a session's first turn, or of every turn when `resume` is absent. */
  command: string[]
  /** argv of later turns for clients that resume a session by its id; absent: every turn starts fresh. */
  resume?: string[]
  /** Where the system prompt goes: a private file named by `{system_file}`, or ahead of the prompt text. */
  system: 'file' | 'prompt'
  /** Whether the prompt is written to stdin (else into the private file `{prompt_file}`). */
  stdin: boolean
  /** spec: `model` defaults to the strongest alias the client offers. */
  defaultModel: string
  /** Arguments per effort level, where the client has a knob for it (spec: `effort` passed where supported). */
  effort?: Partial<Record<Effort, string[]>>
  /** How its stdout is decoded (streams/): `text` for any CLI without a structured stream. */
  format: StreamFormat
  /** Arguments per access level (`{access}`), each the CLI's documented flags for it. */
  access?: Partial<Record<AccessLevel, string[]>>
  /**
   * What `{mcp}` expands to when the member's turns get the project's MCP
   * server (`mcp: {<member>: true}`, issue 24), else nothing: the CLI's
   * documented way to add a stdio server for one run. `{mcp_file}` names a
   * private file holding `{"mcpServers": {"mesh": {command, args}}}`;
   * `{mcp_command}` and `{mcp_args}` are the command and its arguments as
   * TOML values (codex's `-c`).
   */
  mcp?: string[]
  /** Environment variables set when the MCP server is on (same placeholders): gemini reads its settings from a file a variable names. */
  mcpEnv?: Record<string, string>
}

/** The defaults (each CLI's documented headless flags, sources above; a machine may override any of them). */
export const DEFAULT_CLIENTS: Record<string, ClientTemplate> = {
  claude: {
    command: ['claude', '-p', '--model', '{model}', '{mcp}', '--session-id', '{session}', '--append-system-prompt-file', '{system_file}', '--output-format', 'stream-json', '--verbose', '--include-partial-messages', '{access}'],
    resume: ['claude', '-p', '--model', '{model}', '{mcp}', '--resume', '{session}', '--output-format', 'stream-json', '--verbose', '--include-partial-messages', '{access}'],
    system: 'file',
    stdin: true,
    defaultModel: 'opus',
    format: 'claude-stream',
    access: {
      // Denied tools are removed outright, whatever a project's settings allow; reading tools stay.
      read: ['--permission-mode', 'default', '--disallowedTools', 'Edit', 'Write', 'NotebookEdit', 'Bash'],
      edit: ['--permission-mode', 'acceptEdits'],
      full: ['--permission-mode', 'bypassPermissions'],
    },
    // `--mcp-config <configs...>` takes files or JSON strings up to the next option; a file keeps paths out of the process list.
    mcp: ['--mcp-config', '{mcp_file}'],
  },
  codex: {
    command: ['codex', 'exec', '--json', '--model', '{model}', '--skip-git-repo-check', '{access}', '{effort}', '{mcp}', '-'],
    resume: ['codex', 'exec', '--json', '--model', '{model}', '--skip-git-repo-check', '{access}', '{effort}', '{mcp}', 'resume', '{session}', '-'],
    system: 'prompt',
    stdin: true,
    defaultModel: 'gpt-5-codex',
    effort: {
      low: ['-c', 'model_reasoning_effort=low'],
      medium: ['-c', 'model_reasoning_effort=medium'],
      high: ['-c', 'model_reasoning_effort=high'],
      max: ['-c', 'model_reasoning_effort=high'],
    },
    format: 'codex-json',
    access: {
      read: ['--sandbox', 'read-only'],
      edit: ['--sandbox', 'workspace-write'],
      full: ['--sandbox', 'danger-full-access'],
    },
    // `-c` values are TOML; `-c` is global to exec, so it may stand before `resume`.
    mcp: ['-c', 'mcp_servers.mesh.command={mcp_command}', '-c', 'mcp_servers.mesh.args={mcp_args}'],
  },
  gemini: {
    command: ['gemini', '--model', '{model}', '--output-format', 'stream-json', '{access}'],
    resume: ['gemini', '--model', '{model}', '--resume', '{session}', '--output-format', 'stream-json', '{access}'],
    system: 'prompt',
    stdin: true,
    defaultModel: 'gemini-2.5-pro',
    format: 'gemini-stream',
    access: {
      read: ['--approval-mode', 'default'],
      edit: ['--approval-mode', 'auto_edit'],
      full: ['--approval-mode', 'yolo'],
    },
    // No flag names a settings file; the system settings file's path is a variable, and its mcpServers merge over the user's.
    mcpEnv: {GEMINI_CLI_SYSTEM_SETTINGS_PATH: '{mcp_file}'},
  },
  /**
   * The built-in deterministic client: replies from a script file (docs/daemon.md, The script client).
   * Its format is the script's own (`format:` in the script file); it takes no access flags, but reads
   * the turn's level from the turn file.
   */
  script: {
    command: ['{node}', '{script_client}', '{script}'],
    system: 'prompt',
    stdin: true,
    defaultModel: '',
    format: 'text',
  },
}

/** Placeholders a template may use; anything else in braces is left as written. */
export const PLACEHOLDERS = ['model', 'session', 'system_file', 'prompt_file', 'node', 'script_client', 'script', 'effort', 'access', 'mcp', 'mcp_file', 'mcp_command', 'mcp_args'] as const
/** Placeholders that would put project or asker text into the process list, with what to use instead. */
export const REFUSED_PLACEHOLDERS: Record<string, string> = {
  system: '`{system_file}` (a private file) or `system: prompt`',
  prompt: 'stdin, or `{prompt_file}` (a private file) with `stdin: false`',
}
