import {render} from 'ink'
import type {WatchTeamOptions} from '../../client/daemon/team-watch.js'
import type {TeamAction} from './state.js'
import {TeamApp, type TeamSource} from './team-app.js'

export interface RunTeamOptions {
  title: string
  signal: AbortSignal
  /** Starts following; resolves when it stops (rejects when the daemon refuses the token). */
  follow(options: Pick<WatchTeamOptions, 'signal' | 'onSnapshot' | 'onEvent' | 'onMembers' | 'onQueue' | 'onState'>): Promise<void>
}

/** The live team view until q, Ctrl-C or the signal. */
export async function runTeamView(options: RunTeamOptions): Promise<void> {
  const listeners = new Set<(action: TeamAction) => void>()
  // Actions before the view subscribed (its effect runs after the first render) are replayed to it.
  const early: TeamAction[] = []
  const emit = (action: TeamAction) => {
    if (listeners.size === 0) early.push(action)
    listeners.forEach((listener) => listener(action))
  }
  const source: TeamSource = {
    subscribe(listener) {
      listeners.add(listener)
      for (const action of early.splice(0)) listener(action)
      return () => void listeners.delete(listener)
    },
  }
  const quit = new AbortController()
  options.signal.addEventListener('abort', () => quit.abort())
  const instance = render(<TeamApp source={source} title={options.title} onExit={() => quit.abort()} />, {exitOnCtrlC: false})
  const following = options.follow({
    signal: quit.signal,
    onSnapshot: (snapshot) => emit({kind: 'snapshot', snapshot}),
    onEvent: (event) => emit({kind: 'event', event}),
    onMembers: (members) => emit({kind: 'members', members}),
    onQueue: (queue) => emit({kind: 'queue', queue}),
    onState: (state) => emit({kind: 'connection', connected: state.connected, reason: state.reason}),
  })
  try {
    await Promise.race([following, new Promise<void>((resolve) => quit.signal.addEventListener('abort', () => resolve()))])
  } finally {
    quit.abort()
    instance.unmount()
    await instance.waitUntilExit()
  }
}
