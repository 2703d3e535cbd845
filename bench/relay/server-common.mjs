// Shared shell of the three benchmark servers: prints `READY <port>` once
// listening, counts open TCP connections, and answers stdin commands:
//   mem  → `MEM {"rss","heapUsed","external","arrayBuffers","connections"}` (after gc when --expose-gc)
//   cpu  → `CPU <microseconds of user+system CPU used so far>`
//   quit → closes and exits.
import {createInterface} from 'node:readline'

/** Tracks open TCP connections of an http.Server (WebSocket upgrades included). */
export function countConnections(server) {
  let open = 0
  server.on('connection', (socket) => {
    open += 1
    socket.once('close', () => (open -= 1))
  })
  return () => open
}

/** Wires the stdin control protocol; `stop` closes the server. */
export function serveControl({port, connections, stop}) {
  process.stdout.write(`READY ${port}\n`)
  const lines = createInterface({input: process.stdin})
  lines.on('line', async (line) => {
    const command = line.trim()
    if (command === 'mem') {
      if (globalThis.gc) {
        // Two passes: the first may only schedule finalizers.
        globalThis.gc()
        await new Promise((resolve) => setImmediate(resolve))
        globalThis.gc()
      }
      const {rss, heapUsed, external, arrayBuffers} = process.memoryUsage()
      process.stdout.write(`MEM ${JSON.stringify({rss, heapUsed, external, arrayBuffers, connections: connections()})}\n`)
    } else if (command === 'cpu') {
      const {user, system} = process.cpuUsage()
      process.stdout.write(`CPU ${user + system}\n`)
    } else if (command === 'quit') {
      await stop()
      process.exit(0)
    }
  })
  // Orphaned (the runner died): leave rather than hold the port.
  lines.on('close', async () => {
    await stop()
    process.exit(0)
  })
}

export const portArg = () => {
  const port = Number(process.argv[2] ?? 0)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`usage: node ${process.argv[1]} <port>   (0 = any free port)\n`)
    process.exit(2)
  }
  return port
}
