/** issue 18: one normaliser of the audience a Mesh-Sig v2 names, used by signers and servers alike. */
import {describe, expect, it} from 'vitest'
import {audienceOrNull, normalizeAudience, requestAudience} from '../../src/identity/audience.js'
import {MeshError} from '../../src/lib/errors.js'

function refusal(input: string): MeshError {
  try {
    normalizeAudience(input)
  } catch (error) {
    expect(error).toBeInstanceOf(MeshError)
    return error as MeshError
  }
  throw new Error(`expected ${input} to be refused`)
}

describe('normalizeAudience', () => {
  it('lowercases scheme and host', () => {
    expect(normalizeAudience('HTTPS://Registry.EXAMPLE')).toBe('https://registry.example')
  })
  it('drops the default port of the scheme, keeps any other', () => {
    expect(normalizeAudience('https://r.example:443')).toBe('https://r.example')
    expect(normalizeAudience('http://r.example:80')).toBe('http://r.example')
    expect(normalizeAudience('http://r.example:443')).toBe('http://r.example:443')
    expect(normalizeAudience('https://r.example:8443')).toBe('https://r.example:8443')
  })
  it('keeps only the origin: trailing slash, path, query and fragment are dropped', () => {
    for (const url of ['https://r.example/', 'https://r.example/v1/agents/register?x=1', 'https://r.example#top', 'https://r.example/base/']) {
      expect(normalizeAudience(url)).toBe('https://r.example')
    }
  })
  it('writes IPv6 hosts in brackets, compressed and lowercase', () => {
    expect(normalizeAudience('http://[::1]:8080/')).toBe('http://[::1]:8080')
    expect(normalizeAudience('http://[2001:DB8:0:0:0:0:0:1]')).toBe('http://[2001:db8::1]')
    expect(normalizeAudience('https://[::1]:443')).toBe('https://[::1]')
  })
  it('writes IPv4 and international names one way', () => {
    expect(normalizeAudience('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080')
    expect(normalizeAudience('https://BÜCHER.example')).toBe('https://xn--bcher-kva.example')
  })
  it('accepts a URL object', () => {
    expect(normalizeAudience(new URL('https://r.example:443/v1/echo'))).toBe('https://r.example')
  })
  it('refuses user info, other schemes and what is not a URL, with invalid_audience', () => {
    expect(refusal('https://user:secret@r.example').message).toMatch(/user name or password/)
    expect(refusal('https://user@r.example').code).toBe('invalid_audience')
    expect(refusal('ftp://r.example').message).toMatch(/http\(s\)/)
    expect(refusal('ws://r.example').code).toBe('invalid_audience')
    expect(refusal('r.example').message).toMatch(/not a URL/)
    expect(refusal('').code).toBe('invalid_audience')
    expect(audienceOrNull('mailto:someone@r.example')).toBeNull()
  })
})

describe('requestAudience', () => {
  it('builds the audience from the protocol and Host a server saw', () => {
    expect(requestAudience('https', 'R.example:443')).toBe('https://r.example')
    expect(requestAudience('http', '[::1]:8080')).toBe('http://[::1]:8080')
  })
  it('answers null for a Host no client could have addressed', () => {
    for (const host of ['', 'evil.example/path', 'user@r.example', 'a b', 'r.example?x', 'r.example#f', 'r.example\\x']) {
      expect(requestAudience('http', host)).toBeNull()
    }
  })
})
