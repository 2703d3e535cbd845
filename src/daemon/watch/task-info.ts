/**
 * The id and status of a task file, from its frontmatter; a file that cannot
 * be read or parsed falls back to the id in its name and no status (a file
 * being hand-edited is often broken for a moment).
 */
import {readContainedText} from '../../lib/contained-files.js'
import {parseFrontmatter} from '../../standard/frontmatter.js'

export interface TaskInfo {
  id: string
  status?: string
  completed_at?: string
  /** Why the frontmatter could not be used, when it could not. */
  problem?: string
}

/** The task file `relativePath` under `meshDir`, read as a regular file, never through a link (issue 18). */
export async function readTaskInfo(meshDir: string, relativePath: string, nameId: string): Promise<TaskInfo> {
  let text: string
  try {
    const read = await readContainedText(meshDir, relativePath)
    if (read === null) return {id: nameId, problem: 'unreadable: ENOENT'}
    text = read
  } catch (error) {
    return {id: nameId, problem: `unreadable: ${(error as NodeJS.ErrnoException).code ?? String(error)}`}
  }
  try {
    const {data, hasFrontmatter, unterminated} = parseFrontmatter(text)
    if (!hasFrontmatter || unterminated || !data || typeof data !== 'object' || Array.isArray(data)) return {id: nameId, problem: 'no frontmatter'}
    const record = data as Record<string, unknown>
    const info: TaskInfo = {id: typeof record.id === 'string' && record.id !== '' ? record.id : nameId}
    if (typeof record.status === 'string') info.status = record.status
    if (typeof record.completed_at === 'string') info.completed_at = record.completed_at
    return info
  } catch {
    return {id: nameId, problem: 'frontmatter is not valid YAML'}
  }
}
