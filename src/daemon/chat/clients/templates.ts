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
 * `{model}`, `{session}` (the conv's session uuid), `{system_file}` (the path
 * of that private system-prompt file), `{prompt_file}` (the same for the
 * prompt, for a CLI that reads no stdin), `{node}`, `{script_client}`,
 * `{script}`; `{effort}` expands to the `effort` arguments of the member's
 * effort, or to nothing. `{system}` and `{prompt}` (the texts themselves) are
 * refused.
 *
 * How each CLI is driven, as its own documentation says:
 * - Claude Code (https://code.claude.com/docs/en/cli-reference, "CLI flags"
 *   and "System prompt flags"): `-p` prints the answer and exits, reading the
 *   prompt from stdin when it is piped (`cat file | claude -p`);
 *   `--append-system-prompt-file <path>` loads text from a file and appends it
 *   to the default system prompt (documented for print mode); `--session-id
 *   <uuid>` names a new session, `--resume <id>` continues it.
 * - Codex (`codex exec --help`; openai/codex codex-rs/exec/src/cli.rs):
 *   `codex exec [OPTIONS] [PROMPT]`, where a PROMPT of `-` (or none) reads the
 *   instructions from stdin; `-m/--model`, `-c key=value`,
 *   `--skip-git-repo-check`.
 * - Gemini CLI (https://geminicli.com/docs/cli/headless and
 *   docs/cli/cli-reference.md of google-gemini/gemini-cli): when stdin is not a
 *   terminal the CLI runs headless and reads its prompt from stdin
 *   (`echo "…" | gemini`); `--prompt` is only appended to that input, so it is
 *   not used; `-m/--model`.
 */
import {MEMBER_EFFORTS} from '../../../protocol/team.js'

export type Effort = (typeof MEMBER_EFFORTS)[number]
export const EFFORTS: readonly Effort[] = MEMBER_EFFORTS

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
}

/** The defaults (each CLI's documented headless flags, sources above; a machine may override any of them). */
export const DEFAULT_CLIENTS: Record<string, ClientTemplate> = {
  claude: {
    command: ['claude', '-p', '--model', '{model}', '--session-id', '{session}', '--append-system-prompt-file', '{system_file}', '--output-format', 'text'],
    resume: ['claude', '-p', '--model', '{model}', '--resume', '{session}', '--output-format', 'text'],
    system: 'file',
    stdin: true,
    defaultModel: 'opus',
  },
  codex: {
    command: ['codex', 'exec', '--model', '{model}', '--skip-git-repo-check', '{effort}', '-'],
    system: 'prompt',
    stdin: true,
    defaultModel: 'gpt-5-codex',
    effort: {
      low: ['-c', 'model_reasoning_effort=low'],
      medium: ['-c', 'model_reasoning_effort=medium'],
      high: ['-c', 'model_reasoning_effort=high'],
      max: ['-c', 'model_reasoning_effort=high'],
    },
  },
  gemini: {
    command: ['gemini', '--model', '{model}'],
    system: 'prompt',
    stdin: true,
    defaultModel: 'gemini-2.5-pro',
  },
  /** The built-in deterministic client: replies from a script file (docs/daemon.md, The script client). */
  script: {
    command: ['{node}', '{script_client}', '{script}'],
    system: 'prompt',
    stdin: true,
    defaultModel: '',
  },
}

/** Placeholders a template may use; anything else in braces is left as written. */
export const PLACEHOLDERS = ['model', 'session', 'system_file', 'prompt_file', 'node', 'script_client', 'script', 'effort'] as const
/** Placeholders that would put project or asker text into the process list, with what to use instead. */
export const REFUSED_PLACEHOLDERS: Record<string, string> = {
  system: '`{system_file}` (a private file) or `system: prompt`',
  prompt: 'stdin, or `{prompt_file}` (a private file) with `stdin: false`',
}
