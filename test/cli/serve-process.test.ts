import {afterEach, describe, expect, it} from 'vitest'
import {serveProcess, type ServeProcessOptions, type ServerProcess} from '../../src/cli/serve-process.js'
import {isMeshError} from '../../src/lib/errors.js'
import {captureLogger} from '../support/log-capture.js'
import {inProcessSignals} from './signals.js'

let signals: ReturnType<typeof inProcessSignals>
afterEach(() => void signals.restore())

/** A server whose stop waits until the test lets it finish. */
function slowServer() {
  let finish!: () => void
  const server = {
    stops: 0,
    finish: () => finish(),
    stop() {
      server.stops++
      return new Promise<void>((done) => (finish = done))
    },
  }
  return server
}

function options<S extends ServerProcess>(start: () => Promise<S>, extra: Partial<ServeProcessOptions<S>> = {}) {
  const log = captureLogger()
  const printed: string[] = []
  const run: ServeProcessOptions<S> = {
    server: {service: 'relay', listen: {host: '127.0.0.1', port: 8080, portFlag: '--port'}},
    logger: log.logger,
    start,
    announce: () => void printed.push('listening'),
    stopped: (signal) => void printed.push(`stopped ${signal}`),
    ...extra,
  }
  return {run, printed, log}
}

const tick = () => new Promise((done) => setImmediate(done))

describe('serveProcess', () => {
  it('stops once on the first signal, prints the stop line and exits 0; a second signal exits 1 at once', async () => {
    signals = inProcessSignals()
    const server = slowServer()
    const {run, printed, log} = options(async () => server)
    void serveProcess(run)
    await tick()
    expect(printed).toEqual(['listening'])
    signals.send('SIGTERM')
    await tick()
    expect(server.stops).toBe(1)
    expect(log.lines.map((line) => `${line.message} ${JSON.stringify(line.fields)}`)).toEqual(['stopping {"signal":"SIGTERM"}'])
    // The stop hangs: the operator's second Ctrl-C means "now".
    signals.send('SIGINT')
    expect(signals.exit).toHaveBeenCalledWith(1)
    server.finish()
    await tick()
    expect(server.stops).toBe(1)
    expect(printed).toEqual(['listening', 'stopped SIGTERM'])
    expect(signals.exit).toHaveBeenLastCalledWith(0)
  })

  it('turns a port in use into the one listen failure and traps nothing', async () => {
    signals = inProcessSignals()
    const inUse = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:8080'), {code: 'EADDRINUSE', syscall: 'listen', port: 8080})
    const {run, printed} = options(async (): Promise<ServerProcess> => {
      throw inUse
    })
    const error = await serveProcess(run).catch((caught: unknown) => caught)
    expect(isMeshError(error) && [error.code, error.message]).toEqual(['listen_failed', 'The relay could not listen on 127.0.0.1:8080: port 8080 is already in use; pass another --port (0 picks a free one)'])
    expect(printed).toEqual([])
    // Nothing was trapped: a signal now would be Node's own (no listener of ours).
    expect(process.listenerCount('SIGINT') + process.listenerCount('SIGTERM')).toBe(0)
  })

  it('stops, then throws, when the background work gives up; a signal meanwhile exits at once', async () => {
    signals = inProcessSignals()
    const server = slowServer()
    const refused = new Error('registration refused')
    const {run, printed} = options(async () => server, {background: () => Promise.reject(refused)})
    const ended = serveProcess(run).catch((caught: unknown) => caught)
    await tick()
    expect(server.stops).toBe(1)
    signals.send('SIGTERM')
    expect(signals.exit).toHaveBeenCalledWith(1)
    server.finish()
    expect(await ended).toBe(refused)
    expect(printed).toEqual(['listening'])
  })

  it('exits 1 when the stop fails', async () => {
    signals = inProcessSignals()
    const {run, log} = options(async () => ({stop: () => Promise.reject(new Error('pool already ended'))}))
    void serveProcess(run)
    await tick()
    signals.send('SIGINT')
    await tick()
    expect(signals.exit).toHaveBeenCalledWith(1)
    expect(log.lines.find((line) => line.level === 'error')).toMatchObject({message: 'stop failed', fields: {error: 'pool already ended'}})
  })
})
