/** The loader of a mesh project folder: discovery, classification, parsing. */
export {loadProject, MAX_STANDARD_FILE_BYTES, type LoadOptions} from './load.js'
export {classifyFile, isDenied, skipDirectoryReason, skipFileReason, FORMAT_OF_KIND} from './classify.js'
export {parseSimpleYaml} from './simple-yaml.js'
export {countNewlines, lineAt} from './parse.js'
export type {Classification, FileFormat, FileKind, JsonlRecord, ParseProblem, PathNote, Project, ProjectFile, SkippedPath} from './types.js'
