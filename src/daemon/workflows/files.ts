/**
 * Folder and file reads for the runbook routes. They follow no symbolic link
 * (a committed link could otherwise serve a file from outside `.mesh/` to
 * any local user, these routes being open; issue 18, src/daemon/project-files.ts)
 * and read a missing folder as empty.
 */
import type {Dirent} from 'node:fs'
import {isPathRefused} from '../../lib/contained-files.js'
import {assertValid} from '../../lib/schemas.js'
import {describeReadError, parseFrontmatter} from '../../standard/frontmatter.js'
import type {DaemonContext} from '../context.js'
import {listProjectFolder, readProjectText} from '../project-files.js'

type Reader = Pick<DaemonContext, 'meshPath' | 'debug'>

/** The entries of the real folder `.mesh/<relativePath>`; [] when it is missing, not a folder, or a link (said in the debug stream). */
export async function realFolderEntries(context: Reader, relativePath: string): Promise<Dirent[]> {
  return listProjectFolder(context, relativePath).catch((error: unknown) => (isPathRefused(error) ? [] : Promise.reject(error)))
}

export interface ReadFrontmatter {
  /** The whole file. */
  markdown: string
  /** The parsed frontmatter, or null when there is none or it cannot be read. */
  frontmatter: Record<string, unknown> | null
  /** What is wrong with the frontmatter, one sentence each. */
  problems: string[]
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Reads a markdown file and its frontmatter; a broken file yields problems,
 * never an exception (one bad runbook must not hide the others; an
 * unreadable file reads as empty markdown with its problem). `schema`
 * names the JSON Schema the frontmatter is checked against.
 */
export async function readFrontmatterFile(context: Reader, relativePath: string, schema: string): Promise<ReadFrontmatter> {
  let markdown: string
  try {
    const text = await readProjectText(context, relativePath)
    if (text === null) return {markdown: '', frontmatter: null, problems: ['the file cannot be read (ENOENT)']}
    markdown = text
  } catch (error) {
    if (isPathRefused(error)) return {markdown: '', frontmatter: null, problems: [`the file is ${String(error.details?.reason)}: the daemon reads no file through a link`]}
    return {markdown: '', frontmatter: null, problems: [`the file cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`]}
  }
  let parsed
  try {
    parsed = parseFrontmatter(markdown)
  } catch (error) {
    return {markdown, frontmatter: null, problems: [`the frontmatter is not valid YAML: ${describeReadError(error, 2)}`]}
  }
  if (!parsed.hasFrontmatter) return {markdown, frontmatter: null, problems: ['the file has no --- frontmatter block']}
  if (parsed.unterminated) return {markdown, frontmatter: null, problems: ['the frontmatter has no closing --- line']}
  if (!isRecord(parsed.data)) return {markdown, frontmatter: null, problems: ['the frontmatter is not a mapping of keys to values']}
  const problems: string[] = []
  try {
    assertValid(schema, parsed.data)
  } catch (error) {
    problems.push(`the frontmatter does not match ${schema}.schema.json: ${(error as Error).message}`)
  }
  return {markdown, frontmatter: parsed.data, problems}
}

/** A frontmatter value as the answers carry it: a string, or null when missing or of another type. */
export const stringOrNull = (frontmatter: Record<string, unknown> | null, key: string): string | null => {
  const value = frontmatter?.[key]
  return typeof value === 'string' ? value : null
}
