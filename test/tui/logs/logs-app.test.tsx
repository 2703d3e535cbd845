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
  return {
    source,
    subscribed: () => expect(listener).toBeDefined(),
    push: (events: DebugLine[]) => listener!.events(events),
    state: (connected: boolean) => listener!.state(connected),
  }
}

const event = (lvl: DebugLine['lvl'], tag: string, msg: string): DebugLine => ({ts: '2026-11-24T04:00:00.123Z', src: 'daemon', lvl, tag, msg})
// Ink renders on its own schedule: wait until the frame shows what is checked, never a fixed delay (a
// loaded CI machine missed 20 ms).
const until = (check: () => void) => vi.waitFor(check, {timeout: 5_000, interval: 10})
const frameOf = (view: ReturnType<typeof render>) => view.lastFrame() ?? ''

describe('the logs view', () => {
  it('shows events, cycles the minimum level with l and filters tags with t', async () => {
    const {source, subscribed, push} = fakeSource()
    const view = render(<LogsApp source={source} title="mesh daemon" onExit={() => {}} />)
    await until(subscribed)
    push([event('debug', 'http', 'GET /health 200'), event('warn', 'boot', 'slow start'), event('error', 'ux.run-all', 'failed')])
    await until(() => expect(frameOf(view)).toContain('GET /health 200'))
    view.stdin.write('l') // info
    await until(() => expect(frameOf(view)).toContain('level ≥ info'))
    view.stdin.write('l') // warn
    await until(() => expect(frameOf(view)).toContain('level ≥ warn'))
    expect(frameOf(view)).not.toContain('GET /health 200')
    expect(frameOf(view)).toContain('slow start')
    view.stdin.write('t')
    await until(() => expect(frameOf(view)).toContain('tags (comma list'))
    for (const c of 'ux') view.stdin.write(c)
    await until(() => expect(frameOf(view)).toContain('ux▌'))
    view.stdin.write('\r')
    await until(() => expect(frameOf(view)).toContain('tags ux'))
    expect(frameOf(view)).toContain('failed')
    expect(frameOf(view)).not.toContain('slow start')
    view.stdin.write('c')
    await until(() => expect(frameOf(view)).toContain('GET /health 200'))
    view.unmount()
  })

  it('says when it waits for the daemon and quits on q', async () => {
    const {source, subscribed, state} = fakeSource()
    const onExit = vi.fn()
    const view = render(<LogsApp source={source} title="mesh daemon" onExit={onExit} />)
    await until(subscribed)
    state(false)
    await until(() => expect(frameOf(view)).toContain('waiting for the daemon'))
    view.stdin.write('q')
    await until(() => expect(onExit).toHaveBeenCalled())
    view.unmount()
  })

  it('renders other agents text inert and matches tags by namespace', () => {
    const hostile = event('info', 'agent', 'hi\x1b[2Jthere\u202e')
    expect(formatLine(hostile, false)).not.toMatch(/\x1b|\u202e/)
    expect(passes(event('info', 'architect-wake.skipped', ''), 'debug', ['architect-wake'])).toBe(true)
    expect(passes(event('info', 'architect-waker', ''), 'debug', ['architect-wake'])).toBe(false)
  })
})
