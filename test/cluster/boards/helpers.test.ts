import {describe, expect, it} from 'vitest'
import {distanceKm, parseNear} from '../../../src/cluster/boards/geo.js'
import {hashToken, newBoardId, newDeleteToken, newPostId, tokenMatches} from '../../../src/cluster/boards/ids.js'
import {inheritProps, isAgeGated, langMatches} from '../../../src/cluster/boards/props.js'
import {slugify} from '../../../src/cluster/boards/slug.js'
import {expiresAt, isLive} from '../../../src/cluster/boards/ttl.js'

describe('geo', () => {
  it('measures great-circle distances', () => {
    expect(distanceKm({lat: 48.8566, lon: 2.3522}, {lat: 51.5074, lon: -0.1278})).toBeCloseTo(343.5, 0)
    expect(distanceKm({lat: 0, lon: 0}, {lat: 0, lon: 0})).toBe(0)
    expect(distanceKm({lat: 0, lon: 0}, {lat: 0, lon: 180})).toBeCloseTo(20015.1, 0)
  })
  it('parses near and refuses malformed or out-of-range points', () => {
    expect(parseNear('48.85, 2.35')).toEqual({lat: 48.85, lon: 2.35})
    expect(parseNear('-90,180')).toEqual({lat: -90, lon: 180})
    for (const bad of ['', '1', '1,2,3', 'a,b', '90.1,0', '0,180.5', '1e3,0']) expect(parseNear(bad), bad).toBeNull()
  })
})

describe('props inheritance', () => {
  it('takes each key from the nearest level that sets it; where is replaced whole', () => {
    const cluster = {where: {lat: 1, lon: 1, label: 'city'}, lang: 'en', age_min: 0}
    const board = {lang: 'fr'}
    const post = {where: {lat: 2, lon: 2}}
    expect(inheritProps(cluster, board, post)).toEqual({where: {lat: 2, lon: 2}, lang: 'fr', age_min: 0})
    expect(inheritProps(undefined, null, {})).toEqual({})
    expect(inheritProps({age_min: 18}, {age_min: 0})).toEqual({age_min: 0})
  })
  it('ignores unknown keys', () => {
    expect(inheritProps({lang: 'en', colour: 'red'} as never)).toEqual({lang: 'en'})
  })
  it('gates at 18 and matches languages by primary tag', () => {
    expect(isAgeGated({age_min: 18})).toBe(true)
    expect(isAgeGated({age_min: 17})).toBe(false)
    expect(isAgeGated({})).toBe(false)
    expect(langMatches('en', 'en-US')).toBe(true)
    expect(langMatches('en', 'eng')).toBe(false)
    expect(langMatches('pt-br', 'pt-BR')).toBe(true)
    expect(langMatches('pt-BR', 'pt')).toBe(false)
    expect(langMatches('en', undefined)).toBe(false)
  })
})

describe('ids, tokens, slugs, ttl', () => {
  it('makes ids of 128 random bits in one hashtag-friendly word', () => {
    expect(newBoardId()).toMatch(/^b_[a-z2-7]{26}$/)
    expect(newPostId()).toMatch(/^p_[a-z2-7]{26}$/)
    expect(newDeleteToken()).toMatch(/^dt_[a-z2-7]{26}$/)
    expect(new Set(Array.from({length: 1000}, newPostId)).size).toBe(1000)
  })
  it('checks a token against its stored hash only', () => {
    const token = newDeleteToken()
    expect(tokenMatches(token, hashToken(token))).toBe(true)
    expect(tokenMatches(token + 'x', hashToken(token))).toBe(false)
    expect(tokenMatches(token, 'not-hex')).toBe(false)
  })
  it('derives kebab slugs from titles', () => {
    expect(slugify('Rides & Lifts!')).toBe('rides-lifts')
    expect(slugify('Crème brûlée')).toBe('creme-brulee')
    expect(slugify('日本語')).toBe('')
    const long = slugify('word '.repeat(30))
    expect(long.length).toBeLessThanOrEqual(48)
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  })
  it('computes expiry from ttl; a post is live strictly before it', () => {
    expect(expiresAt(1000, '24h')).toBe(1000 + 86_400_000)
    expect(expiresAt(1000, 'forever')).toBeNull()
    expect(isLive(2000, 1999)).toBe(true)
    expect(isLive(2000, 2000)).toBe(false)
    expect(isLive(null, Number.MAX_SAFE_INTEGER)).toBe(true)
  })
})
