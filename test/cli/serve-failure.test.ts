import {describe, expect, it} from 'vitest'
import {listenFailure, startFailure, type StartedAs} from '../../src/cli/serve-failure.js'
import {MeshError} from '../../src/lib/errors.js'

const listenError = (code: string, port?: number) => Object.assign(new Error(`listen ${code}`), {code, syscall: 'listen', ...(port === undefined ? {} : {port})})
const relay: StartedAs = {service: 'relay', listen: {host: '127.0.0.1', port: 8080, portFlag: '--port'}, backends: {dataDir: '/srv/mesh-data'}}

describe('listenFailure', () => {
  it('is one sentence for every server: the address, the port Node tried, the flag that moves it', () => {
    const cases: Array<[string, string, number, string]> = [
      ['registry', '0.0.0.0', 8080, '--port'],
      ['relay', '127.0.0.1', 0, '--port'],
      ['agent', '127.0.0.1', 8090, '--port'],
      ['daemon', '127.0.0.1', 5600, '--port'],
      ['registry', '127.0.0.1', 8080, '--registry-port'],
    ]
    for (const [service, host, port, portFlag] of cases) {
      expect(listenFailure(listenError('EADDRINUSE', 41000), {service, host, port, portFlag})).toMatchObject({
        kind: 'unavailable',
        code: 'listen_failed',
        message: `The ${service} could not listen on ${host}:41000: port 41000 is already in use; pass another ${portFlag} (0 picks a free one)`,
      })
    }
  })
  it('says why for a port it may not bind and an address not of this machine, and ignores other errors', () => {
    const target = {service: 'registry', host: '10.9.9.9', port: 443, portFlag: '--port'}
    expect(listenFailure(listenError('EACCES'), target)?.message).toBe('The registry could not listen on 10.9.9.9:443: no permission to bind port 443')
    expect(listenFailure(listenError('EADDRNOTAVAIL'), target)?.message).toBe('The registry could not listen on 10.9.9.9:443: no interface of this machine has that address; check --host')
    expect(listenFailure(Object.assign(new Error('connect ECONNREFUSED'), {code: 'ECONNREFUSED', syscall: 'connect'}), target)).toBeNull()
  })
})

describe('startFailure', () => {
  it('gives the listen failure first', () => {
    expect(startFailure(listenError('EADDRINUSE'), relay)).toMatchObject({code: 'listen_failed', message: 'The relay could not listen on 127.0.0.1:8080: port 8080 is already in use; pass another --port (0 picks a free one)'})
  })
  it('names the backend and masks every password, even one the driver repeats', () => {
    const databaseUrl = 'postgres://mesh:p%40ss@db:5432/mesh'
    const error = Object.assign(new Error('password authentication failed for "mesh" (p@ss) at postgres://mesh:p@ss@db'), {severity: 'FATAL'})
    const failure = startFailure(error, {service: 'registry', backends: {dataDir: '/srv', databaseUrl}}) as MeshError
    expect(failure).toMatchObject({code: 'registry_start_failed'})
    expect(failure.message).toMatch(/^The registry could not start: PostgreSQL at db:5432 \(--database-url\): /)
    expect(failure.message).not.toContain('p@ss')
    expect(failure.message).not.toContain('p%40ss')
    expect(failure.message).toContain('(***) at postgres://***@db')
  })
  it('names NATS for an error of the nats client that carries no address, beside a database', () => {
    const backends = {dataDir: '/srv', databaseUrl: 'postgres://mesh@db:5432/mesh', natsUrl: 'nats://mesh:s3cret@nats:4222'}
    const error = Object.assign(new Error('Authorization Violation'), {name: 'AuthorizationError'})
    expect(startFailure(error, {service: 'relay', backends})).toMatchObject({
      code: 'relay_start_failed',
      message: 'The relay could not start: NATS at nats:4222 (--nats): Authorization Violation',
    })
  })
  it('passes a MeshError through unchanged, and any error of a server without backends', () => {
    const original = startFailure(new Error('x'), relay)
    expect(original).toBeInstanceOf(MeshError)
    expect(startFailure(original, {service: 'registry'})).toBe(original)
    const plain = new Error('handlers.js threw')
    expect(startFailure(plain, {service: 'agent', listen: {host: '127.0.0.1', port: 8090, portFlag: '--port'}})).toBe(plain)
  })
})
