/**
 * The filters of a search request, applied after text scoring: media types
 * an agent accepts / produces, and operational-only.
 */

/** The filters a request resolved to (aliases merged, limit defaulted). */
export interface SearchFilters {
  operationalOnly: boolean
  /** Any-of: an agent matches when it accepts at least one of these. Empty = no filter. */
  accepts: string[]
  produces: string[]
  limit: number
}

/** `Image/PNG; q=0.9` → `image/png`: types compare without case or parameters. */
export function normalizeMediaType(type: string): string {
  return type.split(';')[0].trim().toLowerCase()
}

/** One media type against another, either side may be a wildcard (`image/*`, `*\/*`). */
export function mediaTypeMatches(wanted: string, offered: string): boolean {
  if (wanted === offered || wanted === '*/*' || offered === '*/*') return true
  const [wantedMain, wantedSub] = wanted.split('/')
  const [offeredMain, offeredSub] = offered.split('/')
  if (wantedMain !== offeredMain) return false
  return wantedSub === '*' || offeredSub === '*'
}

/** True when the agent offers any of the wanted types; no wanted types passes everything. */
export function offersAny(wanted: readonly string[], offered: readonly string[]): boolean {
  if (wanted.length === 0) return true
  return wanted.some((type) => offered.some((candidate) => mediaTypeMatches(type, candidate)))
}
