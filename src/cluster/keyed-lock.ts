/**
 * Runs async tasks one at a time per key, in arrival order. A quota check
 * followed by a write is a race when requests arrive together: on one node,
 * running them under the same key makes check-then-write one step.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>()

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key)
    let done!: () => void
    const tail = new Promise<void>((resolve) => (done = resolve))
    this.tails.set(key, tail)
    try {
      if (previous) await previous
      return await task()
    } finally {
      done()
      // The last in line cleans up, so idle keys hold no memory.
      if (this.tails.get(key) === tail) this.tails.delete(key)
    }
  }
}
