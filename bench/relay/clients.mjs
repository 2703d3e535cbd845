// One client shape over the three systems under test, so the load generator
// and the sender treat them alike:
//   openClient(system, target, {onFrame, onMessage}) → Promise<{send(payload), close(), open()}>
// `onFrame(raw)` sees every frame after `ready` as received: a Buffer for
// the WebSocket servers (not parsed, so a receiver can stay cheap), the
// decoded event object for socket.io (its client always parses).
// `send(payload)` resolves when the server's ack arrives (acks come in send order).
import WebSocket from 'ws'
import {io} from 'socket.io-client'

/** Epoch milliseconds with sub-millisecond resolution, comparable across processes on one machine. */
export const now = () => performance.timeOrigin + performance.now()

const ACK = Buffer.from('"type":"ack"')

function wsClient(url, onFrame) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {perMessageDeflate: false, skipUTF8Validation: true})
    const acks = []
    let ready = false
    ws.on('message', (data) => {
      if (ready) {
        // Only a sender has acks waiting; receivers never parse here.
        if (acks.length > 0 && data.indexOf(ACK) !== -1) return acks.shift()()
        return onFrame(data)
      }
      const frame = JSON.parse(data.toString())
      if (frame.type !== 'ready') return
      ready = true
      resolve({
        send: (payload) =>
          new Promise((done) => {
            acks.push(done)
            ws.send(JSON.stringify({payload}))
          }),
        close: () => ws.close(),
        open: () => ws.readyState === WebSocket.OPEN,
      })
    })
    ws.on('unexpected-response', (request, response) => reject(new Error(`HTTP ${response.statusCode}`)))
    ws.on('error', (error) => {
      if (!ready) reject(error)
    })
  })
}

function socketIoClient(target, onFrame) {
  return new Promise((resolve, reject) => {
    const socket = io(target.http, {transports: ['websocket'], query: {room: target.room, agent: target.agent}, reconnection: false, forceNew: true})
    const acks = []
    socket.on('message', (frame) => onFrame(frame))
    socket.on('ack', () => acks.shift()?.())
    socket.once('ready', () =>
      resolve({
        send: (payload) =>
          new Promise((done) => {
            acks.push(done)
            socket.emit('msg', {payload})
          }),
        close: () => socket.close(),
        open: () => socket.connected,
      }),
    )
    socket.once('connect_error', reject)
  })
}

/** Payload of a received frame: parses a raw WebSocket frame, takes socket.io's object as is. */
export const payloadOf = (frame) => (Buffer.isBuffer(frame) ? JSON.parse(frame.toString()).payload : frame.payload)

/** target: {http: 'http://127.0.0.1:port', room: <cluster id or room name>, token?, agent} */
export function openClient(system, target, onFrame = () => {}) {
  const ws = target.http.replace(/^http/, 'ws')
  if (system === 'mesh') {
    const query = new URLSearchParams({agent: target.agent, ...(target.token ? {token: target.token} : {})})
    return wsClient(`${ws}/v1/clusters/${target.room}/ws?${query}`, onFrame)
  }
  if (system === 'ws') return wsClient(`${ws}/room/${target.room}?agent=${encodeURIComponent(target.agent)}`, onFrame)
  if (system === 'socketio') return socketIoClient(target, onFrame)
  throw new Error(`unknown system ${system}`)
}
