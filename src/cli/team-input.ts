/**
 * The `mesh team` commands' arguments and card flags, and their checks
 * (docs/cli.md, mesh team). Anything malformed is a `usage_*` error (exit 2)
 * before the daemon is called; what only the daemon can judge (an unknown
 * context id, a prompt over 64 KiB) comes back as its `invalid_body`.
 */
import {readFile} from 'node:fs/promises'
import {Args, Flags} from '@oclif/core'
import {invalid} from '../lib/errors.js'
import {MEMBER_EFFORTS, MEMBER_ID_PATTERN} from '../protocol/team.js'

export const memberIdArg = Args.string({description: 'member id: a lowercase letter, then 1 to 31 of a-z, 0-9 and -', required: true})

/** A member id as typed, or `usage_bad_member_id`; checked here so no other text reaches a route's path. */
export function checkMemberId(raw: string): string {
  if (MEMBER_ID_PATTERN.test(raw)) return raw
  throw invalid('usage_bad_member_id', `A member id is a lowercase letter then 1 to 31 of a-z, 0-9 and - (e.g. reviewer); got ${JSON.stringify(raw.slice(0, 40))}`, {field: 'id'})
}

/** The route of one member, `/team/<id>` plus `rest`; the id must have passed checkMemberId. */
export const memberRoute = (id: string, rest = '') => `/team/${id}${rest}`

/**
 * The flags that set a card's fields. With `removable` (edit), an empty
 * `--client`, `--model` or `--effort` removes the field (PATCH null).
 */
export function cardFlags(options: {removable: boolean}) {
  const remove = options.removable ? "; '' removes it" : ''
  return {
    title: Flags.string({description: 'what this member is (one line)'}),
    client: Flags.string({description: `assistant CLI that runs it (a new card's default: claude)${remove}`}),
    model: Flags.string({description: `model id or alias (a new card's default: opus)${remove}`}),
    context: Flags.string({description: "context-tree node ids pinned with their subtrees, comma list ('' for none)"}),
    effort: Flags.string({description: `${MEMBER_EFFORTS.join(', ')}${remove}`}),
    'prompt-file': Flags.string({description: "file whose text becomes the member's prompt (- reads stdin)"}),
  }
}

export interface CardFlagValues {
  title?: string
  client?: string
  model?: string
  context?: string
  effort?: string
  'prompt-file'?: string
}

/** The card fields the flags set: only those given; `null` where an empty value removes one. */
export async function cardFields(flags: CardFlagValues, options: {removable: boolean}): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {}
  const text = (name: 'title' | 'client' | 'model', value: string | undefined) => {
    if (value === undefined) return
    if (value.trim() !== '') fields[name] = value.trim()
    else if (options.removable && name !== 'title') fields[name] = null
    else throw invalid(`usage_empty_${name}`, `--${name} needs a value`, {field: name})
  }
  text('title', flags.title)
  text('client', flags.client)
  text('model', flags.model)
  if (flags.context !== undefined) fields.context = splitList(flags.context)
  if (flags.effort !== undefined) fields.effort = checkEffort(flags.effort, options.removable)
  if (flags['prompt-file'] !== undefined) fields.prompt = await readPrompt(flags['prompt-file'])
  return fields
}

/** `a, b,,a` → `[a, b]`: trimmed, empties and repeats dropped, order kept. */
export function splitList(value: string): string[] {
  return [...new Set(value.split(',').map((item) => item.trim()).filter(Boolean))]
}

function checkEffort(value: string, removable: boolean): string | null {
  if (value === '' && removable) return null
  if ((MEMBER_EFFORTS as readonly string[]).includes(value)) return value
  throw invalid('usage_bad_effort', `--effort is one of ${MEMBER_EFFORTS.join(', ')}${removable ? " ('' removes it)" : ''}; got ${JSON.stringify(value.slice(0, 40))}`, {field: 'effort'})
}

/** The prompt file's text as it is (the card's body is kept byte for byte); `-` reads stdin. */
async function readPrompt(file: string): Promise<string> {
  try {
    return file === '-' ? await readStdin() : await readFile(file, 'utf8')
  } catch (error) {
    throw invalid('usage_prompt_file', `Cannot read --prompt-file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {field: 'prompt-file'})
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
