/**
 * The one public-URL strategy of every server (publicAddress): the port and
 * the public URL are known before the services are built, `--port 0`
 * resolved to a port that is really free.
 */
import {once} from 'node:events'
import {createServer} from 'node:net'
import {describe, expect, it} from 'vitest'
import {localUrl, portIsFree, publicAddress} from '../../src/http/listen.js'

describe('publicAddress', () => {
  it('keeps a given port and public URL, without trailing slashes', async () => {
    expect(await publicAddress({host: '0.0.0.0', port: 8443, publicUrl: 'https://mesh.example/base//'})).toEqual({port: 8443, publicUrl: 'https://mesh.example/base'})
  })

  it('defaults the public URL to the address clients on this machine reach', async () => {
    expect(await publicAddress({host: '127.0.0.1', port: 8080})).toEqual({port: 8080, publicUrl: 'http://127.0.0.1:8080'})
    expect(localUrl('0.0.0.0', 8080)).toBe('http://127.0.0.1:8080')
    expect(localUrl('::1', 8080)).toBe('http://[::1]:8080')
  })

  it('resolves port 0 to a free port first, which the URL names and a server can bind', async () => {
    const {port, publicUrl} = await publicAddress({host: '127.0.0.1', port: 0})
    expect(port).toBeGreaterThan(0)
    expect(publicUrl).toBe(`http://127.0.0.1:${port}`)
    expect(await portIsFree(port, '127.0.0.1')).toBe(true)
    const server = createServer().listen(port, '127.0.0.1')
    await once(server, 'listening')
    expect(await portIsFree(port, '127.0.0.1')).toBe(false)
    server.close()
  })
})
