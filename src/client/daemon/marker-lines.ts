/**
 * Streamed turn lines without the agent-to-daemon marker blocks (```mesh-report
 * …```; docs/daemon.md, Chat — markers): the final text has them removed by
 * the daemon, so a live view hides them as they stream. A block still open
 * at the end was no marker (the daemon leaves an unclosed fence in the
 * text), so its lines are given back by `end()`.
 */

/** A fence opening a marker block: three or more backticks, then `mesh-<name>`. */
const OPENING = /^(`{3,})[ \t]*mesh-[a-z]+[ \t]*$/

export interface MarkerLineFilter {
  /** The lines to show now for one streamed line (none while inside a marker block). */
  push(line: string): string[]
  /** Lines held back by a block that never closed. */
  end(): string[]
}

export function markerLineFilter(): MarkerLineFilter {
  let fence: string | null = null
  let held: string[] = []
  return {
    push(line) {
      if (fence === null) {
        const opening = OPENING.exec(line)
        if (!opening) return [line]
        fence = opening[1]
        held = [line]
        return []
      }
      held.push(line)
      if (new RegExp(`^${fence}[ \\t]*$`).test(line)) {
        fence = null
        held = []
      }
      return []
    },
    end() {
      const rest = held
      fence = null
      held = []
      return rest
    },
  }
}
