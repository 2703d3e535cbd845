// Baseline: socket.io rooms (websocket transport only, no compression).
// A `msg` event is broadcast to the room as a `message` event (socket.io
// encodes a broadcast packet once), the sender gets an `ack` event.
// Run: node bench/relay/server-socketio.mjs <port>; clients connect with query {room, agent}
import {createServer} from 'node:http'
import {Server} from 'socket.io'
import {countConnections, portArg, serveControl} from './server-common.mjs'

const port = portArg()
const server = createServer()
const io = new Server(server, {transports: ['websocket'], perMessageDeflate: false, serveClient: false, maxHttpBufferSize: 128 * 1024})

io.on('connection', (socket) => {
  const room = String(socket.handshake.query.room ?? 'main')
  const agent = String(socket.handshake.query.agent ?? 'anon')
  socket.join(room)
  socket.emit('ready', {type: 'ready', you: agent, online: io.sockets.adapter.rooms.get(room)?.size ?? 1})
  socket.on('msg', (frame) => {
    const to = typeof frame?.to === 'string' ? frame.to : null
    socket.to(room).emit('message', {type: 'message', from: agent, from_did: null, to, ts: new Date().toISOString(), payload: frame?.payload})
    socket.emit('ack', {type: 'ack', to, delivered: (io.sockets.adapter.rooms.get(room)?.size ?? 1) - 1})
  })
})

server.listen(port, '127.0.0.1', () => {
  serveControl({
    port: server.address().port,
    connections: countConnections(server),
    stop: () => new Promise((resolve) => io.close(() => resolve())),
  })
})
