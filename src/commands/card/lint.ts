import {readFile, stat} from 'node:fs/promises'
import {isAbsolute, relative, resolve, sep} from 'node:path'
import {pathToFileURL} from 'node:url'
import {Args, Flags} from '@oclif/core'
import type {Finding as CardFinding} from '../../agent/card-lint/index.js'
import {MeshCommand} from '../../cli/base-command.js'
import {stdoutIsTTY} from '../../cli/tty.js'
import {MeshError} from '../../lib/errors.js'
import {PUBLIC_CARD_PATH} from '../../protocol/agent-card.js'
import type {Finding, ValidationReport} from '../../standard/validate/index.js'

/** The most read of a card, file or URL: what the registry's prober reads (PROBE_MAX_BYTES). */
const MAX_CARD_BYTES = 256 * 1024
/** Deadline of a card fetched from a URL, redirects included. */
const FETCH_TIMEOUT_MS = 10_000

/** A card as read: where it came from (as shown in findings), its text and its JSON value. */
interface CardSource {
  /** The file path relative to the working directory, or the URL fetched. */
  label: string
  /** Absolute path, or the URL. */
  location: string
  isUrl: boolean
  text: string
  value: unknown
}

/** What `--format json` and `--json` print: a `mesh validate` report whose findings also carry the JSON pointer. */
export interface CardLintReport extends ValidationReport {
  findings: Array<Finding & {path: string}>
  /** The previous card's location, with --previous. */
  previous?: string
}

// The exit code 2 for input that cannot be read: a `usage_*` MeshError (src/cli/base-command.ts).
const unreadable = (code: string, message: string) => new MeshError('invalid', `usage_card_${code}`, message)

/**
 * `<url>` as given when its path ends in `.json` (a card URL, e.g. the
 * registry's `/agent/<id>/.well-known/agent.json`); otherwise an agent's base
 * address, whose card is at `/.well-known/agent.json` (spec: Agent side).
 */
function cardUrl(raw: string): URL {
  const url = new URL(raw)
  if (!url.pathname.endsWith('.json')) url.pathname = url.pathname.replace(/\/+$/, '') + PUBLIC_CARD_PATH
  return url
}

async function readCardText(input: string): Promise<Omit<CardSource, 'value'>> {
  if (/^https?:\/\//i.test(input)) {
    const {safeFetch} = await import('../../http/safe-fetch.js')
    let url: URL
    try {
      url = cardUrl(input)
    } catch {
      throw unreadable('unreadable', `${input} is not a URL`)
    }
    // The author lints their own agent, often on this machine: private and loopback addresses are allowed.
    const response = await safeFetch(url, {allowPrivate: true, timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_CARD_BYTES, headers: {accept: 'application/json'}}).catch((error: unknown) => {
      throw unreadable(error instanceof MeshError && error.code === 'too_large' ? 'too_large' : 'unreadable', `Cannot read the card at ${url.href}: ${(error as Error).message}`)
    })
    if (response.status !== 200) throw unreadable('unreadable', `Cannot read the card at ${url.href}: it answered ${response.status}`)
    return {label: response.url, location: response.url, isUrl: true, text: response.bodyText}
  }
  const path = resolve(input)
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw unreadable('unreadable', `Cannot read ${input}: ${error.code === 'ENOENT' ? 'no such file' : (error.code ?? error.message)}`)
  })
  if (!info.isFile()) throw unreadable('unreadable', `Cannot read ${input}: not a file`)
  if (info.size > MAX_CARD_BYTES) throw unreadable('too_large', `${input} is ${info.size} bytes; a card is read up to ${MAX_CARD_BYTES} bytes (what the registry's prober reads)`)
  const text = await readFile(path, 'utf8')
  const shown = relative(process.cwd(), path)
  const label = shown === '' || shown.startsWith('..') || isAbsolute(shown) ? path : shown.split(sep).join('/')
  return {label, location: path, isUrl: false, text}
}

/** Reads a card from a file or a URL; a `usage_card_*` MeshError (exit 2) when it cannot be read or is not JSON. */
async function readCard(input: string): Promise<CardSource> {
  const source = await readCardText(input)
  try {
    return {...source, value: JSON.parse(source.text.replace(/^\uFEFF/, ''))}
  } catch (error) {
    throw unreadable('not_json', `${source.label} is not JSON: ${(error as Error).message}`)
  }
}

/** Findings placed at their line and column in the card's text, sorted as `mesh validate` sorts them. */
async function toReport(source: CardSource, findings: CardFinding[], previous?: CardSource): Promise<CardLintReport> {
  // positions.js alone: the validate index would also load the project loader and every check (~100 ms) a card never needs.
  const {PositionIndex} = await import('../../standard/validate/positions.js')
  const positions = new PositionIndex()
  // A card is one JSON text (JSON is YAML, so pointers map the same way).
  const file = {path: source.label, text: source.text}
  const placed = findings
    .map((finding) => ({file: source.label, ...positions.locate(file, {pointer: finding.path}), rule: finding.rule, severity: finding.severity, message: finding.message, path: finding.path}))
    .sort((a, b) => a.line - b.line || a.column - b.column)
  const errors = placed.filter((finding) => finding.severity === 'error').length
  return {
    root: source.location,
    ...(previous ? {previous: previous.location} : {}),
    findings: placed,
    skipped: [],
    summary: {files: previous ? 2 : 1, skipped: 0, errors, warnings: placed.length - errors, infos: 0},
    ok: errors === 0,
  }
}

/** Where SARIF locates the card: a card read from a URL or outside the working directory by its own address, else relative to the checkout. */
const sarifArtifactUri = (source: CardSource) => (source.isUrl ? source.location : isAbsolute(source.label) ? pathToFileURL(source.label).href : undefined)

/** mesh validate's formatters, told they are checking cards. */
const CARD_TOOL = {name: 'mesh-card-lint', informationUri: 'https://mesh.dev/docs/cards'}
const CARD_NOUN = 'card'

/**
 * `mesh card lint <file|url>`. Imports only oclif and the base command at
 * load time; the linter (ajv), the formatters and the fetch are imported
 * inside run(), so `--help` stays fast.
 */
export default class CardLint extends MeshCommand {
  static override description = `Check an agent's PublicCard against the spec.

Reads a card from a JSON file or a URL (a URL whose path does not end in .json is an agent's base address: its card is fetched from <url>/.well-known/agent.json) and checks required fields, kebab-case and unique skill ids, 2–4 examples with a natural-language ask and a literal JSON body, examples against the input schema, the skill-description rule (when to use, inputs and ranges, output shape, latency, price and free allowance), description ≤ 500, returns paths, pricing, both spellings of inputSchema, and the card url. Unknown keys are ignored. Every rule is listed in docs/cards.md.

With --previous, also compares with the card as last published: a changed inputSchema without a version bump and a removed skill id are errors.

Exit codes: 0 no error-level finding (warnings allowed), 1 at least one error, 2 the card (or --previous) could not be read or is not JSON, or a bad flag.`

  static override examples = [
    '<%= config.bin %> card lint agent.json',
    '<%= config.bin %> card lint https://agent.example',
    '<%= config.bin %> card lint agent.json --previous https://agent.example/.well-known/agent.json',
    '<%= config.bin %> card lint agent.json --format github',
    '<%= config.bin %> card lint agent.json --format sarif > card.sarif',
  ]

  static override args = {
    card: Args.string({description: 'a PublicCard file (JSON), a card URL, or an agent base URL', required: true}),
  }

  static override flags = {
    previous: Flags.string({description: 'the card as last published (file or URL): flags schema changes without a version bump and removed skills'}),
    format: Flags.string({
      char: 'f',
      description: 'output format (--json is the same as --format json; human is another name for text)',
      options: ['text', 'human', 'json', 'github', 'sarif'],
      default: 'text',
    }),
  }

  async run() {
    const {args, flags} = await this.parse(CardLint)
    const [{lintCard, CARD_RULES}, format] = await Promise.all([import('../../agent/card-lint/index.js'), import('../../standard/validate/format/index.js')])
    const current = await readCard(args.card)
    const previous = flags.previous === undefined ? undefined : await readCard(flags.previous)
    const findings = lintCard(current.value, previous ? {previous: previous.value} : {})
    const report = await toReport(current, findings, previous)
    if (!report.ok) process.exitCode = 1
    if (this.jsonEnabled()) return report

    if (flags.format === 'json') {
      this.log(JSON.stringify(report, null, 2))
    } else if (flags.format === 'github') {
      this.log(format.formatGithub(report, '', {tool: 'mesh card lint', noun: CARD_NOUN}))
    } else if (flags.format === 'sarif') {
      const sarif = format.formatSarif(report, {toolVersion: this.config.version, tool: CARD_TOOL, rules: CARD_RULES, artifactUri: sarifArtifactUri(current)})
      this.log(JSON.stringify(sarif, null, 2))
    } else {
      const color = stdoutIsTTY() && !process.env.NO_COLOR
      this.log(format.formatHuman(report, {color, verbose: false, noun: CARD_NOUN}))
    }
    return report
  }
}
