/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), or undefined. One parser for every server. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const match = typeof header === 'string' ? /^bearer\s+(\S+)\s*$/i.exec(header) : null
  return match?.[1]
}
