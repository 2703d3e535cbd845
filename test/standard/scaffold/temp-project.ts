import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach} from 'vitest'
import {completeAnswers, scaffoldProject} from '../../../src/standard/scaffold/index.js'

/** A fixed day, so scaffolded dates are predictable. */
export const TODAY = new Date('2026-03-14T09:30:00Z')

const made: string[] = []
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, {recursive: true, force: true})))
})

/** An empty temp folder, removed after the test. */
export async function tempDir(prefix = 'mesh-std-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  made.push(dir)
  return dir
}

/** A temp folder with a fresh `mesh init` scaffold (project "Demo", id demo). */
export async function tempProject(): Promise<string> {
  const dir = await tempDir()
  await scaffoldProject(dir, completeAnswers({name: 'Demo', id: 'demo'}, dir), {now: TODAY})
  return dir
}
