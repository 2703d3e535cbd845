import type {SiteArea, SiteDeps} from '../types.js'

export function createAgentPages(_deps: SiteDeps): SiteArea {
  return {name: 'agent', middleware: (_ctx, next) => next()}
}
