import {afterEach, describe, expect, it} from 'vitest'
import {trapStopSignals} from '../../src/cli/stop-signals.js'
import {inProcessSignals} from './signals.js'

let signals: ReturnType<typeof inProcessSignals>
afterEach(() => signals.restore())

describe('trapStopSignals', () => {
  it('resolves with the first signal, and exits at once (1) on the next one', async () => {
    signals = inProcessSignals()
    const trap = trapStopSignals()
    signals.send('SIGTERM')
    expect(await trap.signal).toBe('SIGTERM')
    expect(signals.exit).not.toHaveBeenCalled()
    signals.send('SIGINT')
    expect(signals.exit).toHaveBeenCalledWith(1)
  })

  it('takes SIGINT as well, and a stop begun otherwise makes the first signal exit at once', async () => {
    signals = inProcessSignals()
    const first = trapStopSignals()
    signals.send('SIGINT')
    expect(await first.signal).toBe('SIGINT')
    signals.restore()

    signals = inProcessSignals()
    const trap = trapStopSignals()
    trap.stopping()
    trap.stopping()
    signals.send('SIGTERM')
    expect(signals.exit).toHaveBeenCalledTimes(1)
    expect(signals.exit).toHaveBeenCalledWith(1)
  })
})
