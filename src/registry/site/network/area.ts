import type {SiteArea, SiteDeps} from '../types.js'

export function createNetworkPages(_deps: SiteDeps): SiteArea {
  return {name: 'network', middleware: (_ctx, next) => next()}
}
