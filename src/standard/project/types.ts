/**
 * What the loader hands to the validator: every file it found under `.mesh/`
 * (plus `mesh.json` and `.gitignore`), classified by where it sits, read and
 * parsed; and every path it deliberately did not read, with the reason.
 */

/** What a file is, decided by its path alone (spec: project standard, Folder layout). */
export type FileKind =
  | 'bootstrap' // mesh.json
  | 'gitignore' // .gitignore at the repo root
  | 'standard-version' // .mesh/STANDARD_VERSION
  | 'cluster' // public/cluster.yaml
  | 'links' // public/links.yaml
  | 'instructions' // public/AGENT_INSTRUCTIONS.md
  | 'resources' // public/RESOURCES.md
  | 'doc' // docs/<category>/<file>.md
  | 'doc-index' // docs/**/INDEX.md (R6: a map)
  | 'doc-exempt' // docs/**/README.md, governance.md
  | 'module-readme' // modules/<id>/README.md
  | 'task' // modules/<id>/tasks/<ID>-<slug>.md
  | 'archived-task' // modules/<id>/log/<YYYY-MM>/<ID>-<slug>.md
  | 'diagram' // modules/<id>/diagrams/**
  | 'initiative' // roadmap/initiatives/<id>.md
  | 'context' // context/<name>.md
  | 'decision' // context/decisions/YYYY-MM-DD-<slug>.md
  | 'criterion' // context/criteria/<name>.md
  | 'team' // team/<id>.md
  | 'workflow' // workflows/W<N>-<slug>.md
  | 'protocol' // protocols/P<N>-<slug>.md
  | 'run-log' // workflows|protocols/log/<YYYY-MM>/<id>-<date>-<context>.md
  | 'timeline' // timeline/<YYYY-MM-DD>.jsonl
  | 'debug-stream' // .runtime/debug.jsonl
  | 'queue' // queues/<conv>.json
  | 'readme' // README.md anywhere else
  | 'placeholder' // .gitkeep
  | 'unknown' // a file the standard does not define at that place

/** How a kind is stored on disk, which decides how it is parsed. */
export type FileFormat = 'frontmatter' | 'markdown' | 'yaml' | 'json' | 'jsonl' | 'text' | 'opaque'

/** A finding the classifier already knows about (unknown or misplaced file). */
export interface PathNote {
  rule: string
  severity: 'error' | 'warning' | 'info'
  message: string
}

export interface Classification {
  kind: FileKind
  /** The module folder (`modules/<id>/…`). */
  module?: string
  /** The `YYYY-MM` folder of an archived task or run log. */
  month?: string
  /** Whether the file sits under a deny-listed path (local, never committed). */
  denied: boolean
  note?: PathNote
}

/** A parse failure with its 1-based position in the file. */
export interface ParseProblem {
  line: number
  column: number
  message: string
}

/** One line of a JSONL file. */
export interface JsonlRecord {
  line: number
  data?: unknown
  error?: ParseProblem
}

export interface ProjectFile extends Classification {
  /** Path relative to the repo root, with `/` separators. */
  path: string
  /** Absolute path on disk. */
  absolutePath: string
  /** The text (undefined when not read: too large, binary, or opaque). */
  text?: string
  /** Why the text was not read or scanned. */
  unreadReason?: string
  /** Whether the file opens with a `---` fence (frontmatter kinds). */
  hasFrontmatter?: boolean
  /** Parsed frontmatter, YAML or JSON value. */
  data?: unknown
  /** The frontmatter YAML text and its first line in the file (1-based). */
  yamlText?: string
  yamlStartLine?: number
  /** Markdown after the frontmatter and the 1-based line it starts on. */
  body?: string
  bodyStartLine?: number
  /** The file could not be parsed. */
  parseError?: ParseProblem
  /** Lines of a JSONL file. */
  records?: JsonlRecord[]
}

/** A path the loader did not read, and why (shown by `--verbose` and JSON output). */
export interface SkippedPath {
  path: string
  reason: string
  /** A folder that could not be listed: its files were not checked (an error finding, not just a note). */
  unreadable?: boolean
}

export interface Project {
  /** Absolute repo root (the folder holding mesh.json and .mesh/). */
  root: string
  files: ProjectFile[]
  skipped: SkippedPath[]
  /** Whether `.mesh/` exists at all. */
  hasMeshDir: boolean
}
