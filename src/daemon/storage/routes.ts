/** `GET /storage/usage` (spec Endpoints: no auth, cached 5 s). docs/daemon-api.md, Storage. */
import type {Route} from '../route-table.js'
import type {UsageReporter} from './usage.js'

export function storageRoutes(usage: UsageReporter): Route[] {
  return [{method: 'GET', path: '/storage/usage', auth: 'none', handle: () => usage.read()}]
}
