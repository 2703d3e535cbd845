/**
 * The proofs whose paid call is running in this process (issue 18: one
 * payment buys one answer). A request carrying a proof whose handler is
 * running waits for it to answer, then gets the stored answer, so concurrent
 * requests with one proof run the handler once. The store's `reserved` state
 * is what makes one request win; this only lets the others wait for it
 * rather than be turned away.
 */

export interface RunningProofs {
  /** Marks the signature's call as running; returns the function to call once it has answered (or failed). */
  start(signature: string): () => void
  /** Resolves when the signature's running call has answered; null when none runs in this process. */
  whenDone(signature: string): Promise<void> | null
}

export function createRunningProofs(): RunningProofs {
  const running = new Map<string, Promise<void>>()
  return {
    start(signature) {
      let finish!: () => void
      const done = new Promise<void>((resolve) => {
        finish = resolve
      })
      running.set(signature, done)
      return () => {
        if (running.get(signature) === done) running.delete(signature)
        finish()
      }
    },
    whenDone: (signature) => running.get(signature) ?? null,
  }
}
