import {describe, expect, it} from 'vitest'
import {rawMember} from '../../../src/cluster/ws/raw-member.js'

/** A small deterministic PRNG, so a failure can be replayed. */
function rng(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
}

const SPACES = ['', ' ', '\n', '\t ', '\r\n']
const STRINGS = ['', 'a', 'he said \\"hi\\"', '\\\\', '\\\\\\"', 'é ✓ 😀', '\\u00e9\\/\\b', '{[}]', ',:', 'payload']
const SCALARS = ['0', '-0', '1.50', '1e400', '12345678901234567890', 'true', 'false', 'null', '-2.5E-3']

/** Random JSON text with random whitespace, built as text so the exact spelling is known. */
function randomJson(next: () => number, depth: number): string {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]
  const space = () => pick(SPACES)
  const roll = next()
  if (depth <= 0 || roll < 0.4) return roll < 0.2 ? `"${pick(STRINGS)}"` : pick(SCALARS)
  const count = Math.floor(next() * 4)
  if (roll < 0.7) return `[${space()}${Array.from({length: count}, () => space() + randomJson(next, depth - 1) + space()).join(',')}${space()}]`
  const members = Array.from({length: count}, () => `${space()}"${pick(STRINGS)}"${space()}:${space()}${randomJson(next, depth - 1)}${space()}`)
  return `{${members.join(',')}${space()}}`
}

describe('rawMember', () => {
  it('returns the exact text of a member, whatever surrounds it', () => {
    expect(rawMember('{"payload":1}', 'payload')).toBe('1')
    expect(rawMember(' {\n "to" : "x" ,\t"payload" :  { "a" : [1, "}"] }  }\n', 'payload')).toBe('{ "a" : [1, "}"] }')
    expect(rawMember('{"to":"a\\"payload\\":2","payload":"\\\\"}', 'payload')).toBe('"\\\\"')
    expect(rawMember('{"payload":null}', 'payload')).toBe('null')
    expect(rawMember('{"payload":-1.5e+3}', 'payload')).toBe('-1.5e+3')
  })
  it('takes the last of duplicate keys, as JSON.parse does, and reads escaped keys', () => {
    expect(rawMember('{"payload":1,"payload":[2]}', 'payload')).toBe('[2]')
    expect(rawMember('{"pay\\u006coad":"x"}', 'payload')).toBe('"x"')
  })
  it('says undefined when the member is missing', () => {
    expect(rawMember('{}', 'payload')).toBeUndefined()
    expect(rawMember(' { } ', 'payload')).toBeUndefined()
    expect(rawMember('{"payloads":1,"to":{"payload":2}}', 'payload')).toBeUndefined()
  })
  it('agrees with JSON.parse on thousands of random objects', () => {
    const next = rng(20_240_601)
    for (let round = 0; round < 3000; round++) {
      const value = randomJson(next, 4)
      const before = randomJson(next, 2)
      const text = `{ "to" : ${before} ,\n"payload":${value} }`
      const raw = rawMember(text, 'payload')
      expect(raw, text).toBe(value)
      expect(JSON.parse(raw!)).toEqual(JSON.parse(text).payload)
    }
  })
  it('ends on any text, JSON or not', () => {
    const next = rng(7)
    const alphabet = '{}[]":,\\ a1\n'
    for (let round = 0; round < 3000; round++) {
      const text = Array.from({length: Math.floor(next() * 40)}, () => alphabet[Math.floor(next() * alphabet.length)]).join('')
      const raw = rawMember(text, 'payload')
      expect(raw === undefined || typeof raw === 'string').toBe(true)
    }
  })
})
