/**
 * How the daemon runs each assistant CLI (spec: a turn runs through the
 * member's `client`): a command template per client. Three assistant CLIs
 * ship as defaults, plus the built-in deterministic `script` client. A
 * machine overrides or adds clients in `.mesh/agents/clients.yaml` (per
 * machine, never committed: where a CLI lives and how it is called is this
 * machine's business). docs/daemon.md, Clients.
 *
 * Placeholders in `command` and `resume`: `{model}`, `{session}` (the conv's
 * session uuid), `{system}` (the system prompt, for clients that take it as
 * an argument), `{prompt}` (the whole prompt as one argument, for clients that
 * do not read stdin), `{node}`, `{script_client}`, `{script}`; `{effort}`
 * expands to the `effort` arguments of the member's effort, or to nothing.
 */
import {MEMBER_EFFORTS} from '../../../protocol/team.js'

export type Effort = (typeof MEMBER_EFFORTS)[number]
export const EFFORTS: readonly Effort[] = MEMBER_EFFORTS

export interface ClientTemplate {
  /** argv of a session's first turn, or of every turn when `resume` is absent. */
  command: string[]
  /** argv of later turns for clients that resume a session by its id; absent: every turn starts fresh. */
  resume?: string[]
  /** Where the system prompt goes: an argument (`{system}`), or ahead of the prompt text. */
  system: 'argument' | 'prompt'
  /** Whether the prompt is written to stdin (else it is in `{prompt}`). */
  stdin: boolean
  /** spec: `model` defaults to the strongest alias the client offers. */
  defaultModel: string
  /** Arguments per effort level, where the client has a knob for it (spec: `effort` passed where supported). */
  effort?: Partial<Record<Effort, string[]>>
}

/** The defaults (verified against each CLI's `--help` of late 2026; a machine may override any of them). */
export const DEFAULT_CLIENTS: Record<string, ClientTemplate> = {
  claude: {
    command: ['claude', '-p', '--model', '{model}', '--session-id', '{session}', '--append-system-prompt', '{system}', '--output-format', 'text'],
    resume: ['claude', '-p', '--model', '{model}', '--resume', '{session}', '--output-format', 'text'],
    system: 'argument',
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
    command: ['gemini', '--model', '{model}', '--prompt', '{prompt}'],
    system: 'prompt',
    stdin: false,
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
