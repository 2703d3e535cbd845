/**
 * `GET /workflows`, `/workflows/:id`, `/workflows/:id/runs` and the same
 * three for `/protocols` (spec: Endpoints; Authentication: no credential).
 * docs/daemon-api.md, Workflows and protocols.
 */
import {invalid} from '../../lib/errors.js'
import type {DaemonContext} from '../context.js'
import type {Route} from '../route-table.js'
import type {RunbookKind} from './kinds.js'
import {listRunbooks, listRuns, readRunbook} from './runbooks.js'

/** A well-formed id, or 400 `invalid_id` (which also keeps `..` and slashes from ever reaching a path). */
function idOf(kind: RunbookKind, raw: string | undefined): string {
  if (raw !== undefined && kind.id.test(raw)) return raw
  const letter = kind.name === 'workflow' ? 'W' : 'P'
  throw invalid('invalid_id', `a ${kind.name} id is ${letter}<N>, e.g. ${letter}1; got ${JSON.stringify(String(raw).slice(0, 40))}`, {field: 'id'})
}

export function runbookRoutes(context: DaemonContext, kind: RunbookKind): Route[] {
  const base = `/${kind.folder}`
  return [
    {method: 'GET', path: base, auth: 'none', handle: async () => ({[kind.folder]: await listRunbooks(context, kind)})},
    {method: 'GET', path: `${base}/:id`, auth: 'none', handle: ({params}) => readRunbook(context, kind, idOf(kind, params.id))},
    {method: 'GET', path: `${base}/:id/runs`, auth: 'none', handle: ({params}) => listRuns(context, kind, idOf(kind, params.id))},
  ]
}
