/**
 * A promise mutex: `run(work)` starts `work` only after every earlier `run`
 * of the same mutex has settled, so read-modify-write of one file never
 * interleaves inside a process. A failed run does not block the next one.
 */
export interface Mutex {
  run<T>(work: () => Promise<T> | T): Promise<T>
}

export function createMutex(): Mutex {
  let tail: Promise<unknown> = Promise.resolve()
  return {
    run(work) {
      const result = tail.then(() => work())
      tail = result.catch(() => {})
      return result
    },
  }
}
