import type {IncomingMessage} from 'node:http'
import {describe, expect, it} from 'vitest'
import {clientIp} from '../../src/http/client-ip.js'

const request = (peer: string | undefined, forwarded?: string | string[]) =>
  ({socket: {remoteAddress: peer}, headers: forwarded === undefined ? {} : {'x-forwarded-for': forwarded}}) as unknown as IncomingMessage

describe('clientIp', () => {
  it('is the socket peer without --proxy, whatever X-Forwarded-For says', () => {
    expect(clientIp(request('10.0.0.9', '203.0.113.7'), false)).toBe('10.0.0.9')
    expect(clientIp(request('::1'), false)).toBe('::1')
  })
  it('is the address the proxy appended (the last one) with --proxy', () => {
    expect(clientIp(request('10.0.0.9', '203.0.113.7'), true)).toBe('203.0.113.7')
    // A client's own header comes first; nginx's $proxy_add_x_forwarded_for appends the real address.
    expect(clientIp(request('10.0.0.9', '198.51.100.1, 203.0.113.7'), true)).toBe('203.0.113.7')
    expect(clientIp(request('10.0.0.9', ' 198.51.100.1 ,203.0.113.7 , '), true)).toBe('203.0.113.7')
    expect(clientIp(request('10.0.0.9', ['198.51.100.1', '203.0.113.8']), true)).toBe('203.0.113.8')
  })
  it('falls back to the peer with --proxy when no address was forwarded', () => {
    expect(clientIp(request('10.0.0.9'), true)).toBe('10.0.0.9')
    expect(clientIp(request('10.0.0.9', ''), true)).toBe('10.0.0.9')
    expect(clientIp(request('10.0.0.9', ' , '), true)).toBe('10.0.0.9')
    expect(clientIp(request(undefined), true)).toBe('')
  })
})
