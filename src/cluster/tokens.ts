import {createHash, randomBytes, timingSafeEqual} from 'node:crypto'
import {ADMIN_TOKEN_PREFIX, CLUSTER_ID_BYTES, CLUSTER_ID_PREFIX, CLUSTER_TOKEN_PREFIX, TOKEN_BYTES} from './constants.js'

/** A fresh cluster id: `c_` + 144 random bits (DECISIONS: ≥ 128). */
export const newClusterId = () => CLUSTER_ID_PREFIX + randomBytes(CLUSTER_ID_BYTES).toString('base64url')

/** A fresh `ck_` token (join/owner credential) and `ak_` token (admin credential). */
export const newClusterToken = () => CLUSTER_TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url')
export const newAdminToken = () => ADMIN_TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url')

/** Ids look like `c_` + base64url; anything else is unknown without touching the store. */
export const looksLikeClusterId = (value: string) => /^c_[A-Za-z0-9_-]{16,64}$/.test(value)

/** sha256 hex: tokens are stored only as this digest. */
export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex')

/** Constant-time check of a presented token against a stored digest. */
export function tokenMatches(token: string, storedHash: string): boolean {
  const presented = Buffer.from(hashToken(token), 'hex')
  const stored = Buffer.from(storedHash, 'hex')
  return presented.length === stored.length && timingSafeEqual(presented, stored)
}

/** The client IP is kept only as a digest in the quota table. */
export const ipKey = (ip: string) => createHash('sha256').update('mesh-cluster-ip:' + ip).digest('hex').slice(0, 32)
