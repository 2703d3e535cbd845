import {describe, expect, it} from 'vitest'
import {classifyAddress, isPublicAddress, parseIPv6} from '../../src/http/safe-fetch-address.js'

const cases: Array<[string, string, string?]> = [
  // IPv4
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.254', 'cgnat'],
  ['100.128.0.1', 'public'],
  ['100.63.255.255', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link_local'],
  ['172.15.255.255', 'public'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.1', 'public'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['192.88.99.1', 'reserved'],
  ['192.168.1.1', 'private'],
  ['192.169.0.1', 'public'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['198.20.0.1', 'public'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['93.184.216.34', 'public'],
  // IPv6
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['[::1]', 'loopback'],
  ['fe80::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['febf::1', 'link_local'],
  ['fec0::1', 'unique_local'],
  ['fc00::1', 'unique_local'],
  ['fd12:3456:789a::1', 'unique_local'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['2001::1', 'reserved'], // Teredo
  ['2001:2::1', 'reserved'], // benchmarking
  ['3fff::1', 'reserved'], // documentation (RFC 9637)
  ['100::1', 'reserved'], // discard-only
  ['64:ff9b:1::1', 'private'],
  ['2606:4700:4700::1111', 'public'],
  ['2001:4860:4860::8888', 'public'],
  ['2a00:1450:4001:81c::200e', 'public'],
  // IPv6 forms that embed an IPv4 address
  ['::ffff:127.0.0.1', 'loopback', '127.0.0.1'],
  ['::ffff:7f00:1', 'loopback', '127.0.0.1'],
  ['[::ffff:7f00:1]', 'loopback', '127.0.0.1'],
  ['0:0:0:0:0:ffff:7f00:0001', 'loopback', '127.0.0.1'],
  ['::ffff:10.1.2.3', 'private', '10.1.2.3'],
  ['::ffff:169.254.169.254', 'link_local', '169.254.169.254'],
  ['::ffff:100.64.1.1', 'cgnat', '100.64.1.1'],
  ['::ffff:8.8.8.8', 'public', '8.8.8.8'],
  ['::ffff:0:127.0.0.1', 'loopback', '127.0.0.1'],
  ['::127.0.0.1', 'loopback', '127.0.0.1'],
  ['::10.0.0.1', 'private', '10.0.0.1'],
  ['64:ff9b::127.0.0.1', 'loopback', '127.0.0.1'],
  ['64:ff9b::a00:1', 'private', '10.0.0.1'],
  ['64:ff9b::808:808', 'public', '8.8.8.8'],
  ['2002:7f00:1::', 'loopback', '127.0.0.1'],
  ['2002:c0a8:101::1', 'private', '192.168.1.1'],
  ['2002:808:808::1', 'public', '8.8.8.8'],
]

describe('classifyAddress', () => {
  it.each(cases)('%s is %s', (address, expected, embedded) => {
    const verdict = classifyAddress(address)
    expect(verdict.class).toBe(expected)
    if (embedded) expect(verdict.embedded).toBe(embedded)
    expect(isPublicAddress(address)).toBe(expected === 'public')
  })

  it.each(['localhost', 'example.com', '', '1.2.3', '256.1.1.1', '::g', '1::2::3', '[::1'])('"%s" is not an address', (text) => {
    expect(classifyAddress(text).class).toBe('invalid')
    expect(isPublicAddress(text)).toBe(false)
  })
})

describe('parseIPv6', () => {
  it('expands every textual form to eight groups', () => {
    expect(parseIPv6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
    expect(parseIPv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1])
    expect(parseIPv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0])
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(parseIPv6('1:2::7:8')).toEqual([1, 2, 0, 0, 0, 0, 7, 8])
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304])
    expect(parseIPv6('1:2:3:4:5:6:1.2.3.4')).toEqual([1, 2, 3, 4, 5, 6, 0x0102, 0x0304])
    expect(parseIPv6('fe80::1%lo')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1])
    expect(parseIPv6('127.0.0.1')).toBeNull()
  })
})
