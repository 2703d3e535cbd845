/**
 * The merge of `POST /links/:id` (docs/daemon-api.md, Links): each block
 * given (`local`, `prod`, `repo`) is merged key by key into the module's
 * entry — a string sets the key, null removes it, keys not named stay; a
 * block given as null is removed whole, and a block left empty by removals
 * goes too. Edits are made on the YAML document, so untouched lines keep
 * their comments, order and quoting.
 */
import {isMap, isScalar, Pair, type Document, type YAMLMap} from 'yaml'
import {conflict} from '../../lib/errors.js'

export const LINK_BLOCKS = ['local', 'prod', 'repo'] as const
export type LinkBlock = (typeof LINK_BLOCKS)[number]

/** The body, as schemas/daemon-links-patch.schema.json admits it. */
export type LinksPatch = Partial<Record<LinkBlock, Record<string, string | null> | null>>

/** Where a new block goes among an entry's keys (spec order), so `repo` never lands after `notes`. */
const ENTRY_ORDER = ['id', 'local', 'prod', 'repo', 'notes']

function insertBlock(document: Document, entry: YAMLMap, block: LinkBlock): YAMLMap {
  const node = document.createNode({}) as YAMLMap
  const rank = ENTRY_ORDER.indexOf(block)
  const before = entry.items.findIndex((pair) => {
    const key = isScalar(pair.key) ? pair.key.value : pair.key
    const other = ENTRY_ORDER.indexOf(String(key))
    return other > rank
  })
  const pair = new Pair(document.createNode(block), node)
  if (before === -1) entry.items.push(pair)
  else entry.items.splice(before, 0, pair)
  return node
}

/** `prod:` written with no value: the mapping takes the null's place. */
function fillNullBlock(document: Document, entry: YAMLMap, block: LinkBlock): YAMLMap {
  const node = document.createNode({}) as YAMLMap
  entry.set(block, node)
  return node
}

/** Applies a patch to one entry of the document. */
export function applyLinksPatch(document: Document, entry: YAMLMap, patch: LinksPatch, index: number): void {
  for (const block of LINK_BLOCKS) {
    if (!(block in patch)) continue
    const change = patch[block]
    if (change === null || change === undefined) {
      entry.delete(block)
      continue
    }
    const existing = entry.get(block, true)
    // `prod:` with nothing after it reads as null: a block not written yet.
    const empty = existing === undefined || (isScalar(existing) && existing.value === null)
    if (!empty && !isMap(existing)) throw conflict('links_yaml_invalid', `.mesh/public/links.yaml: modules[${index}].${block} is not a mapping; fix the file by hand`, {field: `modules[${index}].${block}`})
    let node: YAMLMap | undefined = isMap(existing) ? existing : undefined
    let removed = false
    for (const [key, value] of Object.entries(change)) {
      if (value === null) {
        removed = node?.delete(key) === true || removed
        continue
      }
      node ??= existing === undefined ? insertBlock(document, entry, block) : fillNullBlock(document, entry, block)
      node.set(key, value)
    }
    if (removed && node !== undefined && node.items.length === 0) entry.delete(block)
  }
}
