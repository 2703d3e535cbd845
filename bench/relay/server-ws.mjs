// Baseline: a bare `ws` broadcast server doing what the relay's hot path
// does — parse the client frame, serialize the `message` frame once, hand the
// same bytes to every other socket of the room, ack the sender — and nothing
// else (no auth, presence, limits or keepalive).
// Run: node bench/relay/server-ws.mjs <port>; clients connect to /room/<name>?agent=<handle>
import {createServer} from 'node:http'
import {WebSocketServer} from 'ws'
import {countConnections, portArg, serveControl} from './server-common.mjs'

const port = portArg()
const rooms = new Map()
const server = createServer((request, response) => response.writeHead(404).end())
const wss = new WebSocketServer({noServer: true, perMessageDeflate: false, maxPayload: 128 * 1024})

server.on('upgrade', (request, socket, head) => {
  const url = new URL(request.url ?? '/', 'http://x')
  const match = /^\/room\/([^/]+)$/.exec(url.pathname)
  if (!match) return socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n')
  wss.handleUpgrade(request, socket, head, (ws) => {
    const name = match[1]
    const agent = url.searchParams.get('agent') ?? 'anon'
    let room = rooms.get(name)
    if (!room) rooms.set(name, (room = new Set()))
    room.add(ws)
    ws.send(JSON.stringify({type: 'ready', you: agent, online: room.size}))
    ws.on('message', (data) => {
      let frame
      try {
        frame = JSON.parse(data.toString())
      } catch {
        return ws.send('{"type":"error","detail":"invalid_frame: not JSON"}')
      }
      const to = typeof frame.to === 'string' ? frame.to : null
      const bytes = Buffer.from(JSON.stringify({type: 'message', from: agent, from_did: null, to, ts: new Date().toISOString(), payload: frame.payload}))
      let delivered = 0
      for (const peer of room) {
        if (peer === ws || peer.readyState !== 1) continue
        peer.send(bytes, {binary: false})
        delivered += 1
      }
      ws.send(JSON.stringify({type: 'ack', to, delivered}))
    })
    ws.on('close', () => {
      room.delete(ws)
      if (room.size === 0) rooms.delete(name)
    })
  })
})

server.listen(port, '127.0.0.1', () => {
  serveControl({
    port: server.address().port,
    connections: countConnections(server),
    stop: () => new Promise((resolve) => {
      for (const client of wss.clients) client.terminate()
      server.close(() => resolve())
    }),
  })
})
