import {render} from 'ink-testing-library'
import {describe, expect, it, vi} from 'vitest'
import type {DebugLine} from '../../../src/client/daemon/follow-debug.js'
import {formatLine, passes} from '../../../src/tui/logs/format.js'
import {LogsApp, type LogsSource} from '../../../src/tui/logs/logs-app.js'

function fakeSource() {
  let listener: Parameters<LogsSource['subscribe']>[0] | undefined
  const source: LogsSource = {
    subscribe(l) {
      listener = l
      return () => (listener = undefined)
    },
  }
  return {source, push: (events: DebugLine[]) => listener!.events(events), state: (connected: boolean) => listener!.state(connected)}
}

const event = (lvl: DebugLine['lvl'], tag: string, msg: string): DebugLine => ({ts: '2026-11-24T04:00:00.123Z', src: 'daemon', lvl, tag, msg})
const tick = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('the logs view', () => {
  it('shows events, cycles the minimum level with l and filters tags with t', async () => {
    const {source, push} = fakeSource()
    const view = render(<LogsApp source={source} title="mesh daemon" onExit={() => {}} />)
    await tick()
    push([event('debug', 'http', 'GET /health 200'), event('warn', 'boot', 'slow start'), event('error', 'ux.run-all', 'failed')])
    await tick()
    expect(view.lastFrame()).toContain('GET /health 200')
    view.stdin.write('l') // info
    view.stdin.write('l') // warn
    await tick()
    expect(view.lastFrame()).not.toContain('GET /health 200')
    expect(view.lastFrame()).toContain('slow start')
    expect(view.lastFrame()).toContain('level ≥ warn')
    view.stdin.write('t')
    await tick()
    for (const c of 'ux') view.stdin.write(c)
    view.stdin.write('\r')
    await tick()
    expect(view.lastFrame()).toContain('failed')
    expect(view.lastFrame()).not.toContain('slow start')
    view.stdin.write('c')
    await tick()
    expect(view.lastFrame()).toContain('GET /health 200')
    view.unmount()
  })

  it('says when it waits for the daemon and quits on q', async () => {
    const {source, state} = fakeSource()
    const onExit = vi.fn()
    const view = render(<LogsApp source={source} title="mesh daemon" onExit={onExit} />)
    await tick()
    state(false)
    await tick()
    expect(view.lastFrame()).toContain('waiting for the daemon')
    view.stdin.write('q')
    expect(onExit).toHaveBeenCalled()
    view.unmount()
  })

  it('renders other agents text inert and matches tags by namespace', () => {
    const hostile = event('info', 'agent', 'hi\x1b[2Jthere\u202e')
    expect(formatLine(hostile, false)).not.toMatch(/\x1b|\u202e/)
    expect(passes(event('info', 'architect-wake.skipped', ''), 'debug', ['architect-wake'])).toBe(true)
    expect(passes(event('info', 'architect-waker', ''), 'debug', ['architect-wake'])).toBe(false)
  })
})
