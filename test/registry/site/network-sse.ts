/** Reads `/network/events` (or `/site/events`) as a browser would: one open response, parsed into `event:`/`data:` pairs. */
export interface SseEvent {
  event: string
  data: unknown
}

export interface SseReader {
  events: SseEvent[]
  /** Resolves once `count` events of type `agent` arrived (rejects after `timeoutMs`). */
  waitFor(predicate: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<SseEvent[]>
  /** Resolves when the server ended the stream. */
  ended: Promise<void>
  close(): void
}

export async function openEvents(url: string): Promise<SseReader> {
  const abort = new AbortController()
  const response = await fetch(url, {headers: {accept: 'text/event-stream'}, signal: abort.signal})
  if (!response.ok || !response.body) throw new Error(`event stream: ${response.status} ${await response.text()}`)
  const events: SseEvent[] = []
  const waiters = new Set<() => void>()
  let buffer = ''
  const decoder = new TextDecoder()
  const reader = response.body.getReader()
  const ended = (async () => {
    try {
      for (;;) {
        const {done, value} = await reader.read()
        if (done) return
        buffer += decoder.decode(value, {stream: true})
        let cut
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut)
          buffer = buffer.slice(cut + 2)
          const fields = new Map<string, string>()
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue
            const colon = line.indexOf(':')
            if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart())
          }
          // An event without a name is a `message` (the site's shared stream sends only those).
          if (fields.has('data')) events.push({event: fields.get('event') ?? 'message', data: JSON.parse(fields.get('data')!)})
        }
        for (const wake of [...waiters]) wake()
      }
    } catch {
      // Aborted by close().
    } finally {
      for (const wake of [...waiters]) wake()
    }
  })()
  let done = false
  void ended.then(() => (done = true))
  return {
    events,
    ended,
    waitFor(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (predicate(events)) {
            waiters.delete(check)
            clearTimeout(timer)
            resolve(events)
          } else if (done) {
            waiters.delete(check)
            clearTimeout(timer)
            reject(new Error(`stream ended; events so far: ${JSON.stringify(events)}`))
          }
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`timed out; events so far: ${JSON.stringify(events)}`))
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    },
    close: () => abort.abort(),
  }
}
