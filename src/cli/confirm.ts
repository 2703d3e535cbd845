/**
 * A yes/no question on the terminal, for commands that destroy something
 * (`mesh team remove`). Callers ask only when `canPrompt()`; anything but
 * y or yes is no, and so is the end of the input (Ctrl-D).
 */
import {createInterface} from 'node:readline/promises'

/** Asks `question` (with ` [y/N] ` after it) on stdout and reads one line from stdin. */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({input: process.stdin, output: process.stdout, terminal: false})
  try {
    process.stdout.write(`${question} [y/N] `)
    const line = await new Promise<string | null>((resolve) => {
      rl.once('line', resolve)
      rl.once('close', () => resolve(null))
    })
    return line !== null && /^\s*(y|yes)\s*$/i.test(line)
  } finally {
    rl.close()
  }
}
