import {BOOTSTRAP_FILE, MARKERS, MESH_DIR, STANDARD_PATHS} from '../../constants.js'
import {lineAt, type ProjectFile} from '../../project/index.js'
import {checkFileSchema} from '../schema-check.js'
import {filesOf, type RuleContext} from '../rule-context.js'

/**
 * File-level rules: parse and schema findings of every file, what the
 * classifier noted about a path, the files a project must have, and the
 * shape of STANDARD_VERSION and of the marker files.
 */
export function checkFiles(context: RuleContext): void {
  const {findings, project} = context
  for (const file of project.files) {
    if (file.note) findings.add(file, file.note.rule, file.note.message, {line: 1, column: 1}, file.note.severity)
    checkFileSchema(file, findings)
  }
  // No file is skipped silently: a folder that cannot be listed hides files nobody checked.
  for (const entry of project.skipped) {
    if (entry.unreadable) findings.add(entry.path, 'parse', `folder ${entry.reason}; the files in it were not checked`)
  }
  // spec: the bootstrap file and cluster.yaml are what make a folder a mesh project.
  if (filesOf(context, 'bootstrap').length === 0) findings.add(BOOTSTRAP_FILE, 'required-file', `${BOOTSTRAP_FILE} is missing at the repository root (run \`mesh init\`)`)
  if (filesOf(context, 'cluster').length === 0) findings.add(`${MESH_DIR}/${STANDARD_PATHS.cluster}`, 'required-file', 'cluster.yaml is missing: a project needs its identity and modules')
  const versions = filesOf(context, 'standard-version')
  if (versions.length === 0) {
    findings.add(`${MESH_DIR}/${STANDARD_PATHS.standardVersion}`, 'required-file', 'STANDARD_VERSION is missing: agents cannot tell which changelog entries apply', undefined, 'warning')
  }
  for (const file of versions) checkStandardVersion(file, context)
  for (const file of filesOf(context, 'instructions')) checkInstructionMarkers(file, context)
  for (const file of filesOf(context, 'resources')) checkResourcesMarker(file, context)
}

function checkStandardVersion(file: ProjectFile, {findings}: RuleContext): void {
  if (file.text === undefined) return
  if (!/^\s*[1-9]\d*\s*$/.test(file.text)) {
    findings.add(file, 'standard-version', `STANDARD_VERSION must hold one positive integer (e.g. 38), found ${JSON.stringify(file.text.trim().slice(0, 40))}`, {line: 1, column: 1})
  }
}

/** Line (1-based) of each occurrence of `needle` in `text`. */
function linesOf(text: string, needle: string): number[] {
  const lines: number[] = []
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) lines.push(lineAt(text, at))
  return lines
}

/** spec v18 + DECISIONS Markers: the render refuses to refresh a file whose markers are gone. */
function checkInstructionMarkers(file: ProjectFile, {findings}: RuleContext): void {
  if (file.text === undefined) return
  const order = [MARKERS.preambleBegin, MARKERS.preambleEnd, MARKERS.operatorBegin, MARKERS.operatorEnd]
  let previous = 0
  for (const marker of order) {
    const lines = linesOf(file.text, marker)
    if (lines.length === 0) findings.add(file, 'instructions-markers', `marker ${marker} is missing; \`mesh render\` refuses to refresh without it`, {line: 1, column: 1})
    else if (lines.length > 1) findings.add(file, 'instructions-markers', `marker ${marker} appears ${lines.length} times; keep exactly one`, {line: lines[1], column: 1})
    else if (lines[0] < previous) findings.add(file, 'instructions-markers', `marker ${marker} is out of order (preamble begin/end, then operator begin/end)`, {line: lines[0], column: 1})
    if (lines.length > 0) previous = lines[0]
  }
}

function checkResourcesMarker(file: ProjectFile, {findings}: RuleContext): void {
  if (file.text === undefined) return
  const lines = linesOf(file.text, MARKERS.resourcesEnd)
  if (lines.length === 0) findings.add(file, 'resources-marker', `marker ${MARKERS.resourcesEnd} is missing; the refresh cannot tell mirrored text from operator text`, {line: 1, column: 1})
  else if (lines.length > 1) findings.add(file, 'resources-marker', `marker ${MARKERS.resourcesEnd} appears ${lines.length} times; keep exactly one`, {line: lines[1], column: 1})
}
