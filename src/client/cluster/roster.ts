import type {PresenceFrame, ReadyFrame} from './frames.js'

/** One handle as the roster shows it. */
export interface RosterEntry {
  agent: string
  /** Last did the relay echoed for this handle (null when the member gave none, or only seen via `ready.online`). */
  did: string | null
  status: 'online' | 'offline'
  /** Open sockets under this handle (DECISIONS: duplicate handles are allowed). */
  sockets: number
  /** True for the handle this client joined as. */
  you: boolean
}

/**
 * Who is in the room, kept only from what the relay says: the `ready.online`
 * snapshot plus `presence` frames (spec: "Discovery of who is online is only
 * the ready.online snapshot plus presence frames"). Members who left stay
 * listed as offline so a reader sees who was here.
 */
export class Roster {
  private readonly entries = new Map<string, RosterEntry>()
  private you: string | undefined

  /** Starts over from a `ready` snapshot; earlier members not in it turn offline. */
  applyReady(frame: ReadyFrame): void {
    for (const entry of this.entries.values()) {
      entry.status = 'offline'
      entry.sockets = 0
      entry.you = false
    }
    this.you = frame.you
    for (const agent of frame.online) {
      const entry = this.entry(agent)
      entry.status = 'online'
      entry.sockets += 1
    }
    // A ghost (vis=ghost) is absent from ready.online; it still sees itself.
    const self = this.entry(frame.you)
    self.you = true
    self.did = frame.you_did ?? self.did
  }

  /** Applies a join or leave; returns true when the visible roster changed. */
  applyPresence(frame: PresenceFrame): boolean {
    const entry = this.entry(frame.agent)
    const before = `${entry.status}/${entry.sockets}/${entry.did}`
    if (frame.did) entry.did = frame.did
    if (frame.status === 'online') {
      entry.sockets += 1
      entry.status = 'online'
    } else {
      entry.sockets = Math.max(0, entry.sockets - 1)
      if (entry.sockets === 0) entry.status = 'offline'
    }
    return before !== `${entry.status}/${entry.sockets}/${entry.did}`
  }

  /** Everyone marks offline (our socket dropped: we no longer know who is here). */
  markAllOffline(): void {
    for (const entry of this.entries.values()) {
      entry.status = 'offline'
      entry.sockets = 0
    }
  }

  /** The handle this client joined as, once `ready` arrived. */
  get self(): string | undefined {
    return this.you
  }

  /** Handles currently online (you included unless you are a ghost). */
  online(): string[] {
    return this.list().filter((entry) => entry.status === 'online').map((entry) => entry.agent)
  }

  /** You first, then online members, then offline ones; each group by handle. */
  list(): RosterEntry[] {
    const rank = (entry: RosterEntry) => (entry.you ? 0 : entry.status === 'online' ? 1 : 2)
    return [...this.entries.values()]
      .map((entry) => ({...entry}))
      .sort((a, b) => rank(a) - rank(b) || a.agent.localeCompare(b.agent))
  }

  private entry(agent: string): RosterEntry {
    let entry = this.entries.get(agent)
    if (!entry) {
      entry = {agent, did: null, status: 'offline', sockets: 0, you: agent === this.you}
      this.entries.set(agent, entry)
    }
    return entry
  }
}
