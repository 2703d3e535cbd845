import {DENY_LIST} from '../../constants.js'
import {filesOf, type RuleContext} from '../rule-context.js'

interface IgnoreLine {
  regex: RegExp
  negated: boolean
  directoryOnly: boolean
  /** A pattern without an inner slash matches a name at any depth (gitignore semantics). */
  anywhere: boolean
}

/** One .gitignore pattern → a matcher (the subset of gitignore that deny-list checks need). */
function compile(raw: string): IgnoreLine | undefined {
  let pattern = raw.replace(/\s+$/, '')
  if (pattern === '' || pattern.startsWith('#')) return undefined
  const negated = pattern.startsWith('!')
  if (negated) pattern = pattern.slice(1)
  // `dir/`, `dir/*` and `dir/**` all keep a folder's contents out of git.
  const directoryOnly = /(\/|\/\*|\/\*\*)$/.test(pattern)
  pattern = pattern.replace(/(\/\*\*|\/\*)$/, '').replace(/\/+$/, '')
  const anywhere = !pattern.includes('/')
  pattern = pattern.replace(/^\//, '')
  const source = pattern
    .split(/(\*\*\/|\*\*|\*|\?)/)
    .map((part) => {
      if (part === '**/') return '(?:.*/)?'
      if (part === '**') return '.*'
      if (part === '*') return '[^/]*'
      if (part === '?') return '[^/]'
      return part.replace(/[.+^${}()|[\]\\]/g, '\\$&')
    })
    .join('')
  return {regex: new RegExp(`^${source}$`), negated, directoryOnly, anywhere}
}

/** Whether git would ignore `entry` (a deny-list path; a trailing `/` marks a folder). */
export function isIgnored(entry: string, patterns: IgnoreLine[]): boolean {
  const isFolder = entry.endsWith('/')
  const segments = entry.replace(/\/$/, '').split('/')
  let ignored = false
  for (const line of patterns) {
    for (let depth = 1; depth <= segments.length; depth++) {
      const candidate = line.anywhere ? segments[depth - 1] : segments.slice(0, depth).join('/')
      const candidateIsFolder = depth < segments.length || isFolder
      if (line.directoryOnly && !candidateIsFolder) continue
      if (line.regex.test(candidate)) {
        ignored = !line.negated
        break
      }
    }
  }
  return ignored
}

/** spec Deny-list (+ DECISIONS): every entry must be ignored by the root .gitignore. */
export function checkGitignore(context: RuleContext): void {
  const {findings} = context
  if (!context.project.hasMeshDir) return
  const file = filesOf(context, 'gitignore')[0]
  if (!file) {
    findings.add('.gitignore', 'gitignore-deny', `.gitignore is missing; it must ignore ${DENY_LIST.join(', ')} (secrets and local state must never be committed)`)
    return
  }
  // Unreadable: the parse finding says so; claiming every entry is missing would be noise.
  if (file.text === undefined) return
  const patterns = file.text.split(/\r?\n/).map(compile).filter((line): line is IgnoreLine => line !== undefined)
  for (const entry of DENY_LIST) {
    if (!isIgnored(entry, patterns)) findings.add(file, 'gitignore-deny', `.gitignore does not ignore ${entry} (deny-list: local state that must never be committed)`, {line: 1, column: 1})
  }
}
