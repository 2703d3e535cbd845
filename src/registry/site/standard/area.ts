import type {SiteArea, SiteDeps} from '../types.js'

export function createStandardPages(_deps: SiteDeps): SiteArea {
  return {name: 'standard', middleware: (_ctx, next) => next()}
}
