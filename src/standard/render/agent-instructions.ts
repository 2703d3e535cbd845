import {lstat, readlink} from 'node:fs/promises'
import {join} from 'node:path'
import {writeFileAtomic} from '../../lib/atomic-write.js'
import {notFound} from '../../lib/errors.js'
import {MESH_DIR, RENDER_TARGETS} from '../constants.js'
import {readTextIfExists as readIfExists} from '../read-optional.js'
import {AGENT_INSTRUCTIONS_SOURCE} from './constants.js'
import {parseMarkedFile, renderTarget} from './markers.js'

/** `linked`: the target is a symbolic link (e.g. CLAUDE.md → AGENTS.md); it is left as it is. */
export type TargetOutcome = 'created' | 'updated' | 'unchanged' | 'linked'

export interface RenderedTarget {
  /** File name at the repository root. */
  path: string
  outcome: TargetOutcome
  /** Where a `linked` target points, as the link says it. */
  link?: string
}

/**
 * The new text of each target (CLAUDE.md, AGENTS.md, GEMINI.md) from the
 * source's current text. Pure: reads nothing, writes nothing. Every file is
 * checked before any result is returned, so one bad file stops them all.
 */
export function planTargets(sourceText: string, targets: ReadonlyMap<string, string | undefined>): Array<{path: string; before: string | undefined; after: string}> {
  const source = parseMarkedFile(sourceText, `${MESH_DIR}/${AGENT_INSTRUCTIONS_SOURCE}`)
  const parsed = [...targets].map(([path, before]) => ({path, before, marked: before === undefined ? undefined : parseMarkedFile(before, path)}))
  return parsed.map(({path, before, marked}) => ({path, before, after: renderTarget(source, marked ? marked.operator : source.operator)}))
}

/**
 * Renders `.mesh/public/AGENT_INSTRUCTIONS.md` into the three targets at the
 * repo root. `check` reports what would change and writes nothing.
 *
 * A target that is a symbolic link (a common way to share one file between
 * assistants, e.g. CLAUDE.md → AGENTS.md) is reported `linked` and never
 * written: replacing it would turn the link into a copy, and following it
 * could write outside the repository. The file it points to is rendered when
 * it is one of the targets itself.
 */
export async function renderAgentInstructions(root: string, options: {check?: boolean} = {}): Promise<RenderedTarget[]> {
  const sourceText = await readIfExists(join(root, MESH_DIR, AGENT_INSTRUCTIONS_SOURCE))
  if (sourceText === undefined) throw notFound('instructions_source_missing', `No ${MESH_DIR}/${AGENT_INSTRUCTIONS_SOURCE}; run \`mesh init\` to create it.`)
  const targets = new Map<string, string | undefined>()
  const links = new Map<string, string>()
  for (const target of RENDER_TARGETS) {
    const path = join(root, target)
    const stat = await lstat(path).catch(() => undefined)
    if (stat?.isSymbolicLink()) links.set(target, await readlink(path))
    else targets.set(target, await readIfExists(path))
  }
  const plan = new Map(planTargets(sourceText, targets).map((item) => [item.path, item]))
  const results: RenderedTarget[] = []
  for (const target of RENDER_TARGETS) {
    const link = links.get(target)
    if (link !== undefined) {
      results.push({path: target, outcome: 'linked', link})
      continue
    }
    const {before, after} = plan.get(target)!
    const outcome: TargetOutcome = before === undefined ? 'created' : before === after ? 'unchanged' : 'updated'
    if (outcome !== 'unchanged' && !options.check) await writeFileAtomic(join(root, target), after)
    results.push({path: target, outcome})
  }
  return results
}
