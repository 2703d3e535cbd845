/**
 * What nodes tell each other on a cluster's subject (one subject per
 * cluster, see constants.clusterSubject). An envelope is one JSON header line
 * and, for messages, the already-serialized `message` frame after it, so the
 * receiving node forwards those exact bytes without parsing or re-encoding.
 */
import type {MemberVis} from './types.js'

export type EnvelopeHeader =
  /** A socket joined on `node`. */
  | {k: 'join'; node: string; sid: string; agent: string; did: string | null; vis: MemberVis}
  /** A socket left. */
  | {k: 'leave'; node: string; sid: string}
  /** A message frame follows; `to` null = broadcast, else the direct recipient handle. */
  | {k: 'msg'; node: string; to: string | null}
  /** The cluster was deleted: close every socket with `closed {reason: 'deleted'}`. */
  | {k: 'deleted'; node: string}

const NEWLINE = 0x0a

export function encodeEnvelope(header: EnvelopeHeader, frame?: Buffer): Buffer {
  const head = Buffer.from(JSON.stringify(header) + '\n', 'utf8')
  return frame ? Buffer.concat([head, frame]) : head
}

/** Parses an envelope; null for anything malformed (another deployment's traffic, a bug): it is dropped. */
export function decodeEnvelope(data: Uint8Array): {header: EnvelopeHeader; frame: Buffer} | null {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  const end = bytes.indexOf(NEWLINE)
  if (end < 0) return null
  try {
    const header = JSON.parse(bytes.subarray(0, end).toString('utf8')) as EnvelopeHeader
    if (!header || typeof header !== 'object' || typeof header.k !== 'string' || typeof header.node !== 'string') return null
    // Copied out of the bus's read buffer, which the client library may reuse.
    return {header, frame: Buffer.from(bytes.subarray(end + 1))}
  } catch {
    return null
  }
}
