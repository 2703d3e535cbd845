import {isIP} from 'node:net'

/**
 * What an IP address is, for the outbound-request policy of mesh (probes,
 * card fetches, webhooks). Only `public` may be dialled unless the operator
 * passed `--allow-private-endpoints`.
 */
export type AddressClass =
  | 'public'
  | 'unspecified' // 0.0.0.0/8, ::
  | 'loopback' // 127/8, ::1
  | 'private' // RFC 1918
  | 'cgnat' // 100.64/10 (RFC 6598)
  | 'link_local' // 169.254/16, fe80::/10
  | 'unique_local' // fc00::/7, and deprecated site-local fec0::/10
  | 'multicast' // 224/4, ff00::/8
  | 'broadcast' // 255.255.255.255
  | 'reserved' // documentation, benchmarking, protocol assignments, 240/4, non-global IPv6
  | 'invalid' // not an IP address at all

export interface AddressVerdict {
  class: AddressClass
  /** Set when an IPv6 address embeds an IPv4 one (mapped, NAT64, 6to4…) and that one decided. */
  embedded?: string
}

type V4Range = [base: number, bits: number, cls: Exclude<AddressClass, 'public' | 'invalid'>]

const v4 = (dotted: string) => dotted.split('.').reduce((acc, part) => acc * 256 + Number(part), 0)

// IANA IPv4 special-purpose registry, reduced to what must never be dialled.
const V4_RANGES: V4Range[] = [
  [v4('0.0.0.0'), 8, 'unspecified'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'cgnat'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link_local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'],
  [v4('192.0.2.0'), 24, 'reserved'],
  [v4('192.88.99.0'), 24, 'reserved'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'reserved'],
  [v4('198.51.100.0'), 24, 'reserved'],
  [v4('203.0.113.0'), 24, 'reserved'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('255.255.255.255'), 32, 'broadcast'],
  [v4('240.0.0.0'), 4, 'reserved'],
]

function inV4Range(value: number, base: number, bits: number): boolean {
  const size = 2 ** (32 - bits)
  return value >= base && value < base + size
}

/** Classifies a dotted-quad IPv4 address. */
function classifyV4(value: number): AddressClass {
  for (const [base, bits, cls] of V4_RANGES) if (inV4Range(value, base, bits)) return cls
  return 'public'
}

/** Parses any textual IPv6 form (with `::`, an embedded dotted quad, or a zone) into 8 16-bit groups. */
export function parseIPv6(text: string): number[] | null {
  let address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  const zone = address.indexOf('%')
  if (zone >= 0) address = address.slice(0, zone)
  if (isIP(address) !== 6) return null
  const lastColon = address.lastIndexOf(':')
  const maybeV4 = address.slice(lastColon + 1)
  if (maybeV4.includes('.')) {
    // Rewrite a trailing dotted quad as the two hex groups it stands for.
    const n = v4(maybeV4)
    address = `${address.slice(0, lastColon + 1)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`
  }
  const [head, rest] = address.includes('::') ? address.split('::') : [address, undefined]
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)))
  const left = parse(head)
  const right = rest === undefined ? [] : parse(rest)
  const fill = 8 - left.length - right.length
  if (fill < 0 || (rest === undefined && fill !== 0)) return null
  return [...left, ...new Array<number>(fill).fill(0), ...right]
}

const groupsToV4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`

function classifyV6(groups: number[]): AddressVerdict {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups
  const zeroUpTo = (n: number) => groups.slice(0, n).every((g) => g === 0)
  if (zeroUpTo(8)) return {class: 'unspecified'}
  if (zeroUpTo(7) && g7 === 1) return {class: 'loopback'}
  const embedded = (address: string): AddressVerdict => {
    const inner = classifyV4(v4(address))
    return inner === 'public' ? {class: 'public', embedded: address} : {class: inner, embedded: address}
  }
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated), ::a.b.c.d (compatible, deprecated)
  if (zeroUpTo(5) && g5 === 0xffff) return embedded(groupsToV4(g6, g7))
  if (zeroUpTo(4) && g4 === 0xffff && g5 === 0) return embedded(groupsToV4(g6, g7))
  if (zeroUpTo(6)) return embedded(groupsToV4(g6, g7))
  // 64:ff9b::/96 well-known NAT64 prefix carries the IPv4 target in its last 32 bits.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(groupsToV4(g6, g7))
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return {class: 'private'} // local-use NAT64 (RFC 8215)
  // 2002::/16 6to4 carries an IPv4 address in bits 16..48.
  if (g0 === 0x2002) return embedded(groupsToV4(g1, g2))
  if ((g0 & 0xfe00) === 0xfc00) return {class: 'unique_local'}
  if ((g0 & 0xffc0) === 0xfe80) return {class: 'link_local'}
  if ((g0 & 0xffc0) === 0xfec0) return {class: 'unique_local'}
  if ((g0 & 0xff00) === 0xff00) return {class: 'multicast'}
  // Only 2000::/3 is global unicast; inside it, 2001::/23 (Teredo, ORCHID,
  // benchmarking…), 2001:db8::/32 and 3fff::/20 (documentation) are not.
  if ((g0 & 0xe000) !== 0x2000) return {class: 'reserved'}
  if (g0 === 0x2001 && g1 < 0x200) return {class: 'reserved'}
  if (g0 === 0x2001 && g1 === 0xdb8) return {class: 'reserved'}
  if ((g0 & 0xfff0) === 0x3ff0) return {class: 'reserved'}
  return {class: 'public'}
}

/** Classifies a textual IP address (IPv4 dotted quad or any IPv6 form, brackets allowed). */
export function classifyAddress(address: string): AddressVerdict {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address
  const family = isIP(bare.split('%')[0])
  if (family === 4) return {class: classifyV4(v4(bare))}
  if (family === 6) {
    const groups = parseIPv6(bare)
    return groups ? classifyV6(groups) : {class: 'invalid'}
  }
  return {class: 'invalid'}
}

/** True when the address may be dialled without `--allow-private-endpoints`. */
export const isPublicAddress = (address: string) => classifyAddress(address).class === 'public'
