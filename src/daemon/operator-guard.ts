/**
 * What the daemon never changes, whatever area asks (spec item 3 and 4;
 * docs/daemon.md, Safety): the operator block of AGENT_INSTRUCTIONS.md and
 * the text below the resources marker of RESOURCES.md. The project writer
 * runs this before every write of those two files, so the rule holds for
 * areas written later too.
 */
import {conflict} from '../lib/errors.js'
import {MARKERS} from '../standard/constants.js'
import {parseMarkedFile} from '../standard/render/markers.js'

const INSTRUCTIONS = 'public/AGENT_INSTRUCTIONS.md'
const RESOURCES = 'public/RESOURCES.md'

const operatorPart = (text: string, name: string) => parseMarkedFile(text, name).operator

function belowResourcesMarker(text: string): string | null {
  const at = text.indexOf(MARKERS.resourcesEnd)
  return at === -1 ? null : text.slice(at)
}

/**
 * Throws 409 `operator_text_protected` when `next` would change the
 * operator's text of one of the two files, or drop their markers (the
 * refresh is refused rather than guessed, as `mesh render` does).
 */
export function assertOperatorTextKept(relativePath: string, previous: string | null, next: string): void {
  if (previous === null) return
  if (relativePath === INSTRUCTIONS) {
    let before: string
    try {
      before = operatorPart(previous, INSTRUCTIONS)
    } catch {
      // The operator already broke the markers; the daemon will not guess where their text is.
      throw conflict('operator_text_protected', `${INSTRUCTIONS} has no intact operator block; the daemon does not rewrite it until the markers are fixed`)
    }
    let after: string | null = null
    try {
      after = operatorPart(next, INSTRUCTIONS)
    } catch {
      after = null
    }
    if (after !== before) throw conflict('operator_text_protected', `The daemon never changes the operator block of ${INSTRUCTIONS}`)
  } else if (relativePath === RESOURCES) {
    const before = belowResourcesMarker(previous)
    if (before === null) throw conflict('operator_text_protected', `${RESOURCES} has no ${MARKERS.resourcesEnd} marker; the daemon does not rewrite it until it is restored`)
    if (belowResourcesMarker(next) !== before) throw conflict('operator_text_protected', `The daemon never changes the text below ${MARKERS.resourcesEnd} in ${RESOURCES}`)
  }
}
