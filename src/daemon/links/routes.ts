/**
 * `GET /links`, `GET /links/:id` (open) and `POST /links/:id` (portal token)
 * — spec: Endpoints, Links registry, Authentication. docs/daemon-api.md, Links.
 */
import type {ErrorObject} from 'ajv'
import {invalid, notFound, type MeshError} from '../../lib/errors.js'
import {assertValid, describeSchemaError, instancePathToField} from '../../lib/schemas.js'
import {MODULE_ID} from '../../standard/constants.js'
import {readClusterInfo} from '../../standard/tasks/cluster-modules.js'
import type {DaemonContext} from '../context.js'
import type {Route} from '../route-table.js'
import {ensureEntry, readLinks, updateLinks, type LinksEntry} from './links-file.js'
import {applyLinksPatch, LINK_BLOCKS, type LinksPatch} from './patch.js'

/** A well-formed module id, or 400 `invalid_id` (so `..` and slashes never reach a lookup). */
function moduleIdOf(raw: string | undefined): string {
  if (raw !== undefined && MODULE_ID.test(raw)) return raw
  throw invalid('invalid_id', `a module id is 2 to 40 of a-z, 0-9 and -; got ${JSON.stringify(String(raw).slice(0, 40))}`, {field: 'id'})
}

/**
 * A schema error at a key the body set is the caller's: 400
 * `invalid_body` naming the body field (`prod.url`). Anything else was
 * already wrong in the file (undefined: links-file answers 409).
 */
function refuseFor(patch: LinksPatch, index: () => number) {
  return (errors: ErrorObject[]): MeshError | undefined => {
    const prefix = `/modules/${index()}/`
    const set = LINK_BLOCKS.flatMap((block) => Object.entries(patch[block] ?? {}).flatMap(([key, value]) => (value === null ? [] : [`${prefix}${block}/${key}`])))
    const mine = errors.find((error) => set.includes(error.instancePath))
    if (!mine) return undefined
    const field = instancePathToField('/' + mine.instancePath.slice(prefix.length))
    return invalid('invalid_body', describeSchemaError({...mine, instancePath: '/' + mine.instancePath.slice(prefix.length)}), {field})
  }
}

export function linksRoutes(context: DaemonContext): Route[] {
  return [
    {method: 'GET', path: '/links', auth: 'none', handle: () => readLinks(context)},
    {
      method: 'GET',
      path: '/links/:id',
      auth: 'none',
      async handle({params}) {
        const id = moduleIdOf(params.id)
        const {modules} = await readLinks(context)
        const entry = Array.isArray(modules) ? modules.find((candidate) => candidate?.id === id) : undefined
        if (!entry) throw notFound('link_not_found', `No entry for module ${id} in .mesh/public/links.yaml`)
        return entry
      },
    },
    {
      method: 'POST',
      path: '/links/:id',
      auth: 'portal',
      async handle(request) {
        const id = moduleIdOf(request.params.id)
        const patch = assertValid<LinksPatch>('daemon-links-patch', await request.body())
        const cluster = await readClusterInfo(context.root)
        if (!cluster.modules.some((module) => module.id === id)) throw notFound('module_not_found', `${id} is not a module of .mesh/public/cluster.yaml`)
        let index = -1
        const {registry} = await updateLinks(context, {
          module: id,
          reason: 'links.patch',
          mutate(document) {
            const found = ensureEntry(document, id)
            index = found.index
            applyLinksPatch(document, found.entry, patch, found.index)
          },
          refuse: refuseFor(patch, () => index),
        })
        return registry.modules[index] as LinksEntry
      },
    },
  ]
}
