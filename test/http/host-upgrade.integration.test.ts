import {connect} from 'node:net'
import {afterEach, describe, expect, it} from 'vitest'
import {serve, type HostedServer, type MeshService} from '../../src/http/index.js'
import {silentLogger} from '../../src/lib/log.js'

/** Sends a raw upgrade request and returns the first line and body the server answers. */
function rawUpgrade(port: number, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`)
    })
    let text = ''
    socket.on('data', (chunk) => (text += chunk.toString()))
    socket.on('end', () => resolve(text))
    socket.on('error', reject)
  })
}

const throwing: MeshService = {
  name: 'throwing',
  middleware: async (_ctx, next) => next(),
  upgrade(request) {
    if (request.url?.startsWith('/boom')) throw new Error('bug in a handler')
    return false
  },
  async close() {},
}

describe('upgrade routing', () => {
  let server: HostedServer
  afterEach(() => server?.stop())

  it('refuses an unparsable target with 400 and keeps serving', async () => {
    server = await serve({services: [throwing], logger: silentLogger})
    expect(await rawUpgrade(server.port, 'http://[/x')).toMatch(/^HTTP\/1.1 400[\s\S]*"bad_request"/)
    expect(await rawUpgrade(server.port, '/nothing-here')).toMatch(/^HTTP\/1.1 404[\s\S]*"not_found"/)
  })

  it('answers 400 when a service handler throws, instead of stopping the process', async () => {
    server = await serve({services: [throwing], logger: silentLogger})
    expect(await rawUpgrade(server.port, '/boom')).toMatch(/^HTTP\/1.1 400/)
    const health = await fetch(`${server.url}/anything`)
    expect(health.status).toBe(404)
  })
})
