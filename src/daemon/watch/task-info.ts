/**
 * The id and status of a task file, from its frontmatter; a file that cannot
 * be read or parsed falls back to the id in its name and no status (a file
 * being hand-edited is often broken for a moment).
 */
import {readFile} from 'node:fs/promises'
import {parseFrontmatter} from '../../standard/frontmatter.js'

export interface TaskInfo {
  id: string
  status?: string
  /** Why the frontmatter could not be used, when it could not. */
  problem?: string
}

export async function readTaskInfo(absolutePath: string, nameId: string): Promise<TaskInfo> {
  let text: string
  try {
    text = await readFile(absolutePath, 'utf8')
  } catch (error) {
    return {id: nameId, problem: `unreadable: ${(error as NodeJS.ErrnoException).code ?? String(error)}`}
  }
  try {
    const {data, hasFrontmatter, unterminated} = parseFrontmatter(text)
    if (!hasFrontmatter || unterminated || !data || typeof data !== 'object' || Array.isArray(data)) return {id: nameId, problem: 'no frontmatter'}
    const record = data as Record<string, unknown>
    const info: TaskInfo = {id: typeof record.id === 'string' && record.id !== '' ? record.id : nameId}
    if (typeof record.status === 'string') info.status = record.status
    return info
  } catch {
    return {id: nameId, problem: 'frontmatter is not valid YAML'}
  }
}
