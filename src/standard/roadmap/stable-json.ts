/**
 * JSON with object keys sorted at every level and two-space indent, so the
 * same data always gives the same bytes whatever order it was built in.
 */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2)
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value && typeof value === 'object') {
    const sorted: Record<string, unknown> = {}
    for (const key of Object.keys(value).sort()) {
      const inner = (value as Record<string, unknown>)[key]
      if (inner !== undefined) sorted[key] = sortKeys(inner)
    }
    return sorted
  }
  return value
}
