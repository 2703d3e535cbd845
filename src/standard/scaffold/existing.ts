import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {parse} from 'yaml'
import {BOOTSTRAP_FILE, MESH_DIR} from '../constants.js'
import type {InitAnswers} from './answers.js'
import {PROJECT_TYPES, type ProjectType} from './constants.js'

/**
 * The answers an earlier `mesh init` (or a person) already wrote down:
 * name, id and type from cluster.yaml, hub URLs from mesh.json. A re-run fills
 * gaps with the same identity instead of asking again. Unreadable files give nothing.
 */
export async function readExistingAnswers(root: string): Promise<Partial<InitAnswers>> {
  const found: Partial<InitAnswers> = {}
  try {
    const cluster = parse(await readFile(join(root, MESH_DIR, 'public', 'cluster.yaml'), 'utf8')) as Record<string, unknown> | null
    if (typeof cluster?.name === 'string') found.name = cluster.name
    if (typeof cluster?.id === 'string') found.id = cluster.id
    if (typeof cluster?.type === 'string' && (PROJECT_TYPES as readonly string[]).includes(cluster.type)) found.type = cluster.type as ProjectType
  } catch {
    // none or unreadable: nothing known
  }
  try {
    const bootstrap = JSON.parse(await readFile(join(root, BOOTSTRAP_FILE), 'utf8')) as {hub?: {url?: unknown; docs?: unknown}}
    if (typeof bootstrap.hub?.url === 'string') found.hub = bootstrap.hub.url
    if (typeof bootstrap.hub?.docs === 'string') found.hubDocs = bootstrap.hub.docs
  } catch {
    // none or unreadable: nothing known
  }
  return found
}
