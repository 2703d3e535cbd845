import type {SiteArea, SiteDeps} from '../types.js'

export function createClusterPages(_deps: SiteDeps): SiteArea {
  return {name: 'clusters', middleware: (_ctx, next) => next()}
}
