import {join} from 'node:path'
import {writeFileAtomic} from '../../lib/atomic-write.js'
import {invalid} from '../../lib/errors.js'
import {MARKERS, MESH_DIR} from '../constants.js'
import {readTextIfExists} from '../read-optional.js'
import {RESOURCES_FILE} from './constants.js'

/**
 * RESOURCES.md with `canonical` as its mirrored part: everything above the
 * first `<!-- mesh:resources:end -->` is replaced, the marker and everything
 * below it (the operator's text) stay byte-identical. A new file gets the
 * marker appended. Refuses when the existing file lacks the marker, or when
 * the canonical text contains it (the boundary would move).
 */
export function replaceResourcesText(existing: string | undefined, canonical: string): string {
  if (canonical.includes(MARKERS.resourcesEnd)) {
    throw invalid('resources_invalid', `The canonical resources text must not contain ${MARKERS.resourcesEnd}; that marker closes it.`)
  }
  const mirrored = canonical === '' || canonical.endsWith('\n') ? canonical : `${canonical}\n`
  if (existing === undefined) return `${mirrored}${MARKERS.resourcesEnd}\n`
  const at = existing.indexOf(MARKERS.resourcesEnd)
  if (at === -1) {
    throw invalid('markers_invalid', `${MESH_DIR}/${RESOURCES_FILE}: the marker ${MARKERS.resourcesEnd} is missing, so the operator's part cannot be told apart; nothing was changed.`)
  }
  return mirrored + existing.slice(at)
}

/**
 * Writes the canonical text into `.mesh/public/RESOURCES.md`; reports whether
 * the bytes changed. `write` replaces the atomic write (the daemon passes its
 * project writer).
 */
export async function renderResources(
  root: string,
  canonical: string,
  options: {check?: boolean; write?: (absolutePath: string, text: string) => Promise<void>} = {},
): Promise<{path: string; outcome: 'created' | 'updated' | 'unchanged'}> {
  const path = join(root, MESH_DIR, RESOURCES_FILE)
  const existing = await readTextIfExists(path)
  const next = replaceResourcesText(existing, canonical)
  const outcome = existing === undefined ? 'created' : existing === next ? 'unchanged' : 'updated'
  if (outcome !== 'unchanged' && !options.check) await (options.write ?? writeFileAtomic)(path, next)
  return {path: `${MESH_DIR}/${RESOURCES_FILE}`, outcome}
}
