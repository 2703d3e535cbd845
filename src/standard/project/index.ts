/** A mesh project folder: finding its root, its paths and dates, and the loader (discovery, classification, parsing). */
export {findProjectRoot, isDirectory, meshPath, utcDate, utcDateTime} from './project-root.js'
export {loadProject, MAX_STANDARD_FILE_BYTES, type LoadOptions} from './load.js'
export {classifyFile, isDenied, skipDirectoryReason, skipFileReason, FORMAT_OF_KIND} from './classify.js'
export {parseSimpleYaml} from './simple-yaml.js'
export {countNewlines, lineAt} from './parse.js'
export type {Classification, FileFormat, FileKind, JsonlRecord, ParseProblem, PathNote, Project, ProjectFile, SkippedPath} from './types.js'
