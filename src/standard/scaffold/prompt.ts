import {createInterface} from 'node:readline/promises'
import type {Readable, Writable} from 'node:stream'
import {invalid} from '../../lib/errors.js'
import {checkAnswer, clusterIdFrom, nameFromFolder, type InitAnswers} from './answers.js'
import {DEFAULT_HUB_URL, DEFAULT_PROJECT_TYPE, PROJECT_TYPES} from './constants.js'

/**
 * Asks, line by line, for each answer `given` lacks: a default in brackets
 * (Enter takes it), a bad answer is explained and asked again. Plain readline
 * rather than an Ink form: four questions need no screen, and it behaves the
 * same in every terminal. Ending the input (Ctrl-D) cancels with `usage_cancelled`.
 */
export async function promptAnswers(given: Partial<InitAnswers>, dir: string, io: {input: Readable; output: Writable}): Promise<Partial<InitAnswers>> {
  const rl = createInterface({input: io.input, terminal: false})
  // Lines are queued as they come, so answers typed (or pasted) ahead of a question are not lost.
  const queued: string[] = []
  let waiting: {resolve: (line: string) => void; reject: (error: Error) => void} | undefined
  let ended = false
  const cancelled = () => invalid('usage_cancelled', 'mesh init was cancelled; nothing was written.')
  rl.on('line', (line) => {
    if (waiting) {
      const {resolve} = waiting
      waiting = undefined
      resolve(line)
    } else queued.push(line)
  })
  rl.on('close', () => {
    ended = true
    waiting?.reject(cancelled())
    waiting = undefined
  })
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      if (queued.length > 0) resolve(queued.shift()!)
      else if (ended) reject(cancelled())
      else waiting = {resolve, reject}
    })
  const ask = async <T>(question: string, fallback: string, check: (value: string) => T): Promise<T> => {
    for (;;) {
      io.output.write(`${question} [${fallback}]: `)
      const answer = (await nextLine()).trim()
      try {
        return check(answer === '' ? fallback : answer)
      } catch (error) {
        io.output.write(`  ${(error as Error).message}\n`)
      }
    }
  }
  try {
    const answers: Partial<InitAnswers> = {...given}
    answers.name ??= await ask('Project name', nameFromFolder(dir), checkAnswer.name)
    answers.id ??= await ask('Project id', clusterIdFrom(answers.name), checkAnswer.id)
    answers.type ??= await ask(`Project type (${PROJECT_TYPES.join(', ')})`, DEFAULT_PROJECT_TYPE, checkAnswer.type)
    answers.hub ??= await ask('Hub URL', DEFAULT_HUB_URL, (value) => checkAnswer.url(value, 'hub'))
    return answers
  } finally {
    rl.removeAllListeners()
    rl.close()
  }
}
