/** Random ids and the one-time delete token. DECISIONS: ids carry ≥ 128 random bits. */
import {randomBytes} from 'node:crypto'
import {BOARD_ID_PREFIX, DELETE_TOKEN_PREFIX, ID_RANDOM_BYTES, POST_ID_PREFIX} from './constants.js'

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'

/** Lowercase RFC 4648 base32 without padding: ids stay one hashtag-friendly word. */
function base32(bytes: Uint8Array): string {
  let out = ''
  let bits = 0
  let value = 0
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31]
  return out
}

const randomWord = () => base32(randomBytes(ID_RANDOM_BYTES))

/** 16 random bytes in base32 are 26 characters. */
export const ID_BODY = '[a-z2-7]{26}'
export const POST_ID_PATTERN = new RegExp(`^${POST_ID_PREFIX}${ID_BODY}$`)
export const BOARD_ID_PATTERN = new RegExp(`^${BOARD_ID_PREFIX}${ID_BODY}$`)

export const newBoardId = () => BOARD_ID_PREFIX + randomWord()
export const newPostId = () => POST_ID_PREFIX + randomWord()
export const newDeleteToken = () => DELETE_TOKEN_PREFIX + randomWord()

/** A delete token is stored and checked like the cluster tokens: SHA-256 hex, compared in constant time. */
export {hashToken, tokenMatches} from '../tokens.js'
