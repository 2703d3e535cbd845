import {render} from 'ink'
import type {FollowOptions, DebugLine} from '../../client/daemon/follow-debug.js'
import type {Level} from './format.js'
import {LogsApp, type LogsSource} from './logs-app.js'

export interface RunLogsOptions {
  title: string
  level: Level
  tags: string[]
  signal: AbortSignal
  /** Starts following; resolves when it stops. */
  follow(options: Pick<FollowOptions, 'onEvents' | 'onState' | 'signal'>): Promise<void>
}

/** The live logs view until q, Ctrl-C or the signal. */
export async function runLogsView(options: RunLogsOptions): Promise<void> {
  const listeners = new Set<{events(events: DebugLine[]): void; state(connected: boolean): void}>()
  const source: LogsSource = {
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
  // Quitting the view (q) or the command's signal (Ctrl-C outside raw mode, SIGTERM) both stop the polling.
  const quit = new AbortController()
  options.signal.addEventListener('abort', () => quit.abort())
  const instance = render(<LogsApp source={source} title={options.title} initialLevel={options.level} initialTags={options.tags} onExit={() => quit.abort()} />, {exitOnCtrlC: false})
  const following = options.follow({
    signal: quit.signal,
    onEvents: (events) => listeners.forEach((l) => l.events(events)),
    onState: (state) => listeners.forEach((l) => l.state(state.connected)),
  })
  await new Promise<void>((resolve) => {
    quit.signal.addEventListener('abort', () => resolve())
    void following.finally(resolve)
  })
  quit.abort()
  instance.unmount()
  await instance.waitUntilExit()
}
