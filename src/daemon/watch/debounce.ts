/**
 * Per-path debouncing of raw watcher events: a path's events settle once none
 * came for `windowMs` (or `maxWaitMs` after the first), and the burst is
 * handed on as one. Whether the file exists after is read from the disk when
 * the burst is handled, and whether it existed before is what the watcher
 * announced of it (file-events.ts), so an add and an unlink in one burst (a
 * scratch file) is nothing, and an unlink then an add (a rename over the file)
 * is one change.
 */

export interface SettledBurst {
  path: string
}

export interface PathDebouncer {
  push(path: string): void
  /** Bursts still waiting to settle. */
  readonly pending: number
  /** Drops every pending burst (on close). */
  clear(): void
}

export function createPathDebouncer(options: {windowMs: number; maxWaitMs: number; onSettled: (burst: SettledBurst) => void}): PathDebouncer {
  const bursts = new Map<string, {firstAt: number; timer: NodeJS.Timeout}>()
  const settle = (path: string) => {
    const burst = bursts.get(path)
    if (!burst) return
    bursts.delete(path)
    options.onSettled({path})
  }
  return {
    push(path) {
      const now = Date.now()
      const burst = bursts.get(path)
      if (burst) {
        clearTimeout(burst.timer)
        const wait = Math.max(0, Math.min(options.windowMs, burst.firstAt + options.maxWaitMs - now))
        burst.timer = setTimeout(settle, wait, path)
        return
      }
      bursts.set(path, {firstAt: now, timer: setTimeout(settle, options.windowMs, path)})
    },
    get pending() {
      return bursts.size
    },
    clear() {
      for (const burst of bursts.values()) clearTimeout(burst.timer)
      bursts.clear()
    },
  }
}
