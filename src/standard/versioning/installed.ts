import {readContainedText} from '../../lib/contained-files.js'
import {invalid} from '../../lib/errors.js'
import {meshPath} from '../project/project-root.js'
import {STANDARD_VERSION_FILE} from './constants.js'

/** The integer in `.mesh/STANDARD_VERSION`, or null when the file is missing. Throws on anything but an integer. */
export async function readInstalledVersion(root: string): Promise<number | null> {
  let text: string | null
  try {
    // Never through a link (issue 18); a linked file is refused with its sentence.
    text = await readContainedText(meshPath(root), STANDARD_VERSION_FILE)
  } catch (error) {
    if ((error as {code?: string}).code === 'path_refused') throw error
    return null
  }
  if (text === null) return null
  if (!/^\s*\d+\s*$/.test(text)) {
    throw invalid('standard_version_invalid', `.mesh/${STANDARD_VERSION_FILE} must hold one integer, found ${JSON.stringify(text.trim().slice(0, 40))}.`)
  }
  return Number(text.trim())
}
