import {createServer, connect as tcpConnect, type Server, type Socket} from 'node:net'
import {afterEach, expect, it} from 'vitest'
import type {Bus} from '../../src/bus/bus.js'
import {createNatsBus} from '../../src/bus/nats.js'
import type {Logger} from '../../src/lib/log.js'
import {NATS_URL, uniqueNatsPrefix} from '../support/backends.js'
import {busContract} from './bus.contract.js'

busContract('nats (real server)', async () => {
  const prefix = uniqueNatsPrefix()
  return [await createNatsBus({url: NATS_URL, prefix}), await createNatsBus({url: NATS_URL, prefix})]
})

/** A TCP hop in front of the real NATS server that the test can cut and refuse, as a network outage would. */
async function outageProxy() {
  const target = new URL(NATS_URL)
  const sockets = new Set<Socket>()
  let open = true
  const server: Server = createServer((client) => {
    if (!open) return void client.destroy()
    const upstream = tcpConnect(Number(target.port || 4222), target.hostname)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => {})
      socket.on('close', () => {
        sockets.delete(socket)
        client.destroy()
        upstream.destroy()
      })
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as {port: number}).port
  return {
    url: `nats://127.0.0.1:${port}`,
    cut() {
      open = false
      for (const socket of sockets) socket.destroy()
    },
    restore() {
      open = true
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Waits for a condition the bus reaches on its own (a status event); the test's timeout bounds it. */
async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10))
}

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

it('reports a lost connection and its recovery, and logs each once', async () => {
  const proxy = await outageProxy()
  cleanups.push(proxy.close)
  const lines: string[] = []
  const logger: Logger = {
    debug() {},
    info: (message) => void lines.push(`info ${message}`),
    warn: (message) => void lines.push(`warn ${message}`),
    error: (message) => void lines.push(`error ${message}`),
  }
  const bus: Bus = await createNatsBus({url: proxy.url, prefix: uniqueNatsPrefix(), logger, reconnectTimeWaitMs: 50})
  cleanups.push(() => bus.close())
  const opened = bus.status()
  expect(opened).toMatchObject({kind: 'nats', connected: true, reconnects: 0})

  proxy.cut()
  await until(() => !bus.status().connected)
  expect(bus.status()).toMatchObject({kind: 'nats', connected: false, reconnects: 0})
  expect(Date.parse(bus.status().since)).toBeGreaterThanOrEqual(Date.parse(opened.since))

  proxy.restore()
  await until(() => bus.status().connected)
  expect(bus.status()).toMatchObject({kind: 'nats', connected: true, reconnects: 1})
  expect(lines).toEqual(['warn bus disconnected; reconnecting', 'info bus reconnected'])

  // Traffic flows again over the new connection.
  const got: string[] = []
  bus.subscribe('after', (data) => got.push(Buffer.from(data).toString()))
  await bus.flush()
  bus.publish('after', Buffer.from('back'))
  await bus.flush()
  await until(() => got.length === 1)
  expect(got).toEqual(['back'])
})

it('reports a closed bus as not connected', async () => {
  const bus = await createNatsBus({url: NATS_URL, prefix: uniqueNatsPrefix()})
  await bus.close()
  await until(() => !bus.status().connected)
  expect(bus.status().connected).toBe(false)
})
