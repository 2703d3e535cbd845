/**
 * The daemon's task index (src/daemon/tasks/task-index.ts): memory serves
 * only while a follower reports changes; what it reports, and what the
 * project writer writes, is read again at the next read; a loss or the end
 * of following goes back to the files.
 */
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {createProjectWriter} from '../../../src/daemon/project-writer.js'
import {createTaskIndex} from '../../../src/daemon/tasks/task-index.js'
import {makeRepo, taskFile, type FixtureRepo} from '../../standard/fixtures.js'

let repo: FixtureRepo
afterEach(() => repo?.cleanup())

function setUp() {
  repo = makeRepo({'.mesh/modules/api/tasks/API2-login.md': taskFile({id: 'API2', title: 'Login', status: 'backlog'})})
  const writer = createProjectWriter({root: repo.root, clock: () => Date.now(), snapshotsEnabled: () => false})
  const index = createTaskIndex(repo.root, writer)
  const statusOf = async (id: string) => (await index.find(id)).data.status
  const byHand = (status: string) => writeFileSync(join(repo.root, '.mesh/modules/api/tasks/API2-login.md'), taskFile({id: 'API2', title: 'Login', status}))
  return {writer, index, statusOf, byHand}
}

describe('the task index', () => {
  it('reads the files at every read while nobody follows them', async () => {
    const {index, statusOf, byHand} = setUp()
    expect((await index.records()).map((record) => record.id)).toEqual(['API1', 'API2', 'API0'])
    byHand('active')
    expect(await statusOf('API2')).toBe('active')
  })

  it('serves from memory while followed, reading again what the follower reports and what the writer writes', async () => {
    const {writer, index, statusOf, byHand} = setUp()
    const follower = index.follow()
    const first = await index.records()
    expect(await index.records()).toBe(first)
    // Not reported: memory still says backlog (the watcher reports every change; this proves memory serves).
    byHand('active')
    expect(await statusOf('API2')).toBe('backlog')
    follower.changed('modules/api/tasks/API2-login.md')
    expect(await statusOf('API2')).toBe('active')
    expect(await index.records()).not.toBe(first)

    // The daemon's own writes, added and removed files, and archived ones.
    await writer.write('modules/api/tasks/API2-login.md', taskFile({id: 'API2', title: 'Login', status: 'done'}), {reason: 'task.transition'})
    expect(await statusOf('API2')).toBe('done')
    writeFileSync(join(repo.root, '.mesh/modules/api/tasks/API3-new.md'), taskFile({id: 'API3', title: 'New'}))
    follower.changed('modules/api/tasks/API3-new.md')
    await writer.remove('modules/api/tasks/API1-first-task.md', {reason: 'task.archive'})
    expect((await index.records()).map((record) => `${record.id}${record.archived ? ' (archived)' : ''}`)).toEqual(['API2', 'API3', 'API0 (archived)'])
    // Other files are no tasks.
    follower.changed('modules/api/README.md')
    follower.changed('modules/api/tasks/.gitkeep')
    expect(await index.records()).toHaveLength(3)
  })

  it('goes back to the files after a loss and when nobody follows any more', async () => {
    const {index, statusOf, byHand} = setUp()
    const follower = index.follow()
    await index.records()
    byHand('next')
    follower.lost()
    expect(await statusOf('API2')).toBe('next')
    byHand('blocked')
    follower.stop()
    expect(await statusOf('API2')).toBe('blocked')
  })
})
