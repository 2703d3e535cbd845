/**
 * A strict WebSocket client for wire tests: it speaks RFC 6455 on a bare TCP
 * socket and checks every byte the relay sends — FIN set, no RSV bits, no
 * mask, a known opcode, text that is UTF-8 JSON, control frames ≤ 125 bytes,
 * and nothing at all after the close frame. `ws` as a client would silently
 * ignore bytes after a close frame, so it cannot prove the relay's raw writes
 * (ws/wire.ts) never follow or split one of ws's own frames.
 */
import {randomBytes} from 'node:crypto'
import {connect, type Socket} from 'node:net'

export type RawFrame = {kind: 'text'; json: Record<string, unknown>} | {kind: 'ping' | 'pong'; data: Buffer} | {kind: 'close'; code: number}

export class RawClient {
  readonly frames: RawFrame[] = []
  /** Protocol violations seen, as sentences; a correct relay leaves this empty. */
  readonly violations: string[] = []
  /** Bytes received after the close frame (must stay 0). */
  bytesAfterClose = 0
  /** Answer the relay's pings (on by default, as every client must). */
  autoPong = true
  private buffer: Buffer = Buffer.alloc(0)
  private closeSeen = false
  private closeSent = false
  private waiters: Array<() => boolean> = []
  readonly ended: Promise<void>

  private constructor(readonly socket: Socket) {
    this.ended = new Promise((resolve) => socket.once('close', () => resolve()))
    socket.on('error', () => {})
  }

  /** Opens the socket and completes the handshake (101) on `path` of the relay at `base` (http://host:port). */
  static async open(base: string, path: string): Promise<RawClient> {
    const {hostname, port} = new URL(base)
    const socket = connect(Number(port), hostname)
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject))
    const key = randomBytes(16).toString('base64')
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`)
    const rest = await new Promise<Buffer>((resolve, reject) => {
      let head = Buffer.alloc(0)
      const onData = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk])
        const end = head.indexOf('\r\n\r\n')
        if (end < 0) return
        socket.off('data', onData)
        const status = head.subarray(0, end).toString('latin1').split('\r\n')[0]
        if (!/^HTTP\/1\.1 101 /.test(status)) return reject(new Error(`handshake refused: ${status}`))
        resolve(head.subarray(end + 4))
      }
      socket.on('data', onData)
    })
    const client = new RawClient(socket)
    socket.on('data', (chunk: Buffer) => client.onData(chunk))
    if (rest.length) client.onData(rest)
    return client
  }

  texts(type?: string) {
    return this.frames.flatMap((f) => (f.kind === 'text' && (type === undefined || f.json.type === type) ? [f.json] : []))
  }

  /** Resolves once `match()` holds (checked after every frame). */
  until(match: () => boolean, timeoutMs = 20_000): Promise<void> {
    if (match()) return Promise.resolve()
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`raw client: condition not met; last frames ${JSON.stringify(this.frames.slice(-3))}`)), timeoutMs)
      const check = () => {
        if (!match()) return false
        clearTimeout(timer)
        resolve()
        return true
      }
      this.waiters.push(check)
    })
  }

  sendText(text: string) {
    this.write(0x1, Buffer.from(text, 'utf8'))
  }

  ping(data: Buffer) {
    this.write(0x9, data)
  }

  close(code = 1000) {
    this.closeSent = true
    const payload = Buffer.alloc(2)
    payload.writeUInt16BE(code)
    this.write(0x8, payload)
  }

  /** A client frame: FIN, opcode, masked with a random key (RFC 6455 §5.3). */
  private write(opcode: number, payload: Buffer) {
    const mask = randomBytes(4)
    const length = payload.length
    const header = length < 126 ? Buffer.from([0x80 | opcode, 0x80 | length]) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10)
    if (length >= 126 && length < 65536) {
      header[0] = 0x80 | opcode
      header[1] = 0x80 | 126
      header.writeUInt16BE(length, 2)
    } else if (length >= 65536) {
      header[0] = 0x80 | opcode
      header[1] = 0x80 | 127
      header.writeBigUInt64BE(BigInt(length), 2)
    }
    const masked = Buffer.from(payload)
    for (let i = 0; i < masked.length; i++) masked[i] ^= mask[i & 3]
    if (!this.socket.destroyed) this.socket.write(Buffer.concat([header, mask, masked]))
  }

  private onData(chunk: Buffer) {
    if (this.closeSeen) {
      this.bytesAfterClose += chunk.length
      return
    }
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk
    for (;;) {
      const frame = this.takeFrame()
      if (!frame) break
      this.frames.push(frame)
      if (frame.kind === 'ping' && this.autoPong) this.write(0xa, frame.data)
      if (frame.kind === 'close') {
        // RFC 6455 §5.5.1: answer a close frame with one (unless this side closed first).
        if (!this.closeSent) this.close(frame.code === 1005 ? 1000 : frame.code)
        this.closeSeen = true
        this.bytesAfterClose += this.buffer.length
        this.buffer = Buffer.alloc(0)
      }
      this.waiters = this.waiters.filter((check) => !check())
      if (this.closeSeen) break
    }
  }

  private takeFrame(): RawFrame | null {
    const b = this.buffer
    if (b.length < 2) return null
    const fin = b[0] & 0x80
    const rsv = b[0] & 0x70
    const opcode = b[0] & 0x0f
    const masked = b[1] & 0x80
    let length = b[1] & 0x7f
    let offset = 2
    if (length === 126) {
      if (b.length < 4) return null
      length = b.readUInt16BE(2)
      offset = 4
    } else if (length === 127) {
      if (b.length < 10) return null
      length = Number(b.readBigUInt64BE(2))
      offset = 10
    }
    if (b.length < offset + length) return null
    const payload = b.subarray(offset, offset + length)
    this.buffer = b.subarray(offset + length)
    if (!fin) this.violations.push(`fragmented frame (opcode ${opcode})`)
    if (rsv) this.violations.push(`RSV bits set (${rsv})`)
    if (masked) this.violations.push('masked server frame')
    if (opcode >= 0x8 && length > 125) this.violations.push(`control frame of ${length} bytes`)
    switch (opcode) {
      case 0x1: {
        const text = new TextDecoder('utf-8', {fatal: true})
        try {
          return {kind: 'text', json: JSON.parse(text.decode(payload)) as Record<string, unknown>}
        } catch (error) {
          this.violations.push(`text frame that is not UTF-8 JSON: ${String(error)}`)
          return {kind: 'text', json: {}}
        }
      }
      case 0x8:
        return {kind: 'close', code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005}
      case 0x9:
        return {kind: 'ping', data: Buffer.from(payload)}
      case 0xa:
        return {kind: 'pong', data: Buffer.from(payload)}
      default:
        this.violations.push(`unexpected opcode ${opcode}`)
        return {kind: 'pong', data: Buffer.alloc(0)}
    }
  }
}
