/**
 * `GET /health/live` and `GET /health/ready` (docs/operating.md, Liveness
 * and readiness): live while the process answers; ready only while the
 * database answers, the bus is connected and the node is not draining —
 * else 503 with the reason as mesh's error body. `/health` is unchanged.
 */
import {randomBytes} from 'node:crypto'
import request from 'supertest'
import {describe, expect, it} from 'vitest'
import {createLocalBus, type Bus} from '../../src/bus/bus.js'
import {createHostApp} from '../../src/http/host.js'
import {silentLogger} from '../../src/lib/log.js'
import {createRegistry} from '../../src/registry/registry.js'
import {createSqliteRegistryStore} from '../../src/registry/store/sqlite.js'
import {openSqlite} from '../../src/store/sqlite.js'

function served(bus: Bus = createLocalBus()) {
  const db = openSqlite()
  const store = createSqliteRegistryStore({db})
  const registry = createRegistry({store, bus, logger: silentLogger, publicUrl: 'https://registry.example', jwtSecret: randomBytes(32)})
  const http = request(createHostApp({services: [registry], logger: silentLogger}).callback())
  return {db, registry, http}
}

describe('liveness and readiness', () => {
  it('answers live and ready while the store answers', async () => {
    const {http} = served()
    const live = await http.get('/health/live')
    expect(live.status).toBe(200)
    expect(live.body).toEqual({ok: true})
    const ready = await http.get('/health/ready')
    expect(ready.status).toBe(200)
    expect(ready.body).toEqual({ok: true})
    expect(ready.headers['cache-control']).toBe('no-store')
  })

  it('is not ready with the database down, and still live; /health keeps its answer', async () => {
    const {db, http} = served()
    db.close()
    const ready = await http.get('/health/ready')
    expect(ready.status).toBe(503)
    expect(ready.body.error.code).toBe('store_unavailable')
    expect(ready.body.error.message).toMatch(/database/i)
    expect((await http.get('/health/live')).status).toBe(200)
    const health = await http.get('/health')
    expect(health.status).toBe(200)
    expect(health.body).toMatchObject({ok: true, service: 'registry'})
  })

  it('is not ready while draining, and ready again when the flag is cleared', async () => {
    const {registry, http} = served()
    registry.draining = true
    const ready = await http.get('/health/ready')
    expect(ready.status).toBe(503)
    expect(ready.body.error).toEqual({code: 'draining', message: 'This node is draining: it takes no new traffic'})
    expect((await http.get('/health/live')).status).toBe(200)
    registry.draining = false
    expect((await http.get('/health/ready')).status).toBe(200)
  })

  it('is not ready while the NATS bus is disconnected', async () => {
    // The local bus, reporting what a NATS bus reports while it reconnects.
    const local = createLocalBus()
    const reconnecting: Bus = {...local, status: () => ({...local.status(), kind: 'nats', connected: false})}
    const {http} = served(reconnecting)
    const ready = await http.get('/health/ready')
    expect(ready.status).toBe(503)
    expect(ready.body.error.code).toBe('bus_unavailable')
  })
})
