/**
 * The history area (docs/daemon-api.md, History): the timeline's days and
 * one day's events (deltas counted, not returned; the last `limit`; bad lines
 * skipped; a linked day file never read), `mesh validate`'s report, and the
 * files that have snapshots — all behind the portal token.
 */
import {symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {makeRepo, TODAY} from '../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../harness.js'

const line = (ts: string, type: string, text: string) => JSON.stringify({ts, type, author: 'developer', text, conv: 'm-developer', src: 'daemon'}) + '\n'

let harness: DaemonHarness

beforeAll(async () => {
  harness = await startHarness({
    repo: makeRepo({
      [`.mesh/timeline/${TODAY}.jsonl`]: [
        line(`${TODAY}T09:00:00.000Z`, 'chat.user', 'first'),
        line(`${TODAY}T09:00:01.000Z`, 'chat.assistant.delta', 'printing'),
        'not json\n',
        line(`${TODAY}T09:00:02.000Z`, 'chat.assistant.final', 'x'.repeat(5000)),
      ].join(''),
      '.mesh/timeline/2026-01-04.jsonl': line('2026-01-04T10:00:00.000Z', 'chat.user', 'the day before'),
      '.mesh/timeline/notes.txt': 'not a day\n',
      '.mesh/docs/architecture/notes.md': '# Notes\n',
    }),
  })
  // A day file that is a link: never read, never listed.
  writeFileSync(join(harness.repo.root, 'outside.jsonl'), line('2026-01-03T10:00:00.000Z', 'chat.user', 'secret'))
  symlinkSync(join(harness.repo.root, 'outside.jsonl'), join(harness.repo.root, '.mesh/timeline/2026-01-03.jsonl'))
}, 60_000)

afterAll(() => harness?.close())

describe('the history routes', () => {
  it('list the timeline days, newest first, without a linked file', async () => {
    const answer = await harness.call('GET', '/timeline', {auth: true})
    expect(answer.status).toBe(200)
    expect(answer.body.days.map((day: {day: string}) => day.day)).toEqual([TODAY, '2026-01-04'])
  })

  it("read one day's events: deltas counted, bad lines skipped, text cut, the last `limit`", async () => {
    const day = await harness.call('GET', `/timeline/${TODAY}`, {auth: true})
    expect(day.status).toBe(200)
    expect(day.body.events.map((event: {type: string}) => event.type)).toEqual(['chat.user', 'chat.assistant.final'])
    expect(day.body).toMatchObject({day: TODAY, truncated: false, deltas: 1, skipped: 1})
    expect(day.body.events[0]).not.toHaveProperty('src')
    expect(day.body.events[1].text).toHaveLength(4000)
    const last = await harness.call('GET', `/timeline/${TODAY}?limit=1`, {auth: true})
    expect(last.body.events.map((event: {type: string}) => event.type)).toEqual(['chat.assistant.final'])
    expect(last.body.truncated).toBe(true)
  })

  it('refuse a bad day, a bad limit, a missing or linked day, and a call without the token', async () => {
    const codes = async (path: string, auth = true) => {
      const answer = await harness.call('GET', path, {auth})
      return [answer.status, answer.body.error?.code]
    }
    expect(await codes('/timeline/2026-1-5')).toEqual([400, 'invalid_day'])
    expect(await codes('/timeline/..%2F..%2Fetc')).toEqual([400, 'invalid_day'])
    expect(await codes(`/timeline/${TODAY}?limit=0`)).toEqual([400, 'invalid_query'])
    expect(await codes('/timeline/2026-02-01')).toEqual([404, 'day_not_found'])
    expect(await codes('/timeline/2026-01-03')).toEqual([404, 'day_not_found'])
    expect(await codes('/timeline', false)).toEqual([401, 'portal_token_required'])
    expect(await codes('/validate', false)).toEqual([401, 'portal_token_required'])
  })

  it("answer mesh validate's report", async () => {
    const report = await harness.call('GET', '/validate', {auth: true})
    expect(report.status).toBe(200)
    expect(report.body.ok).toBe(false)
    expect(report.body.findings).toContainEqual(expect.objectContaining({file: '.mesh/docs/architecture/notes.md', line: 1, severity: 'error'}))
  })

  it('list the files that have snapshots, the most recently rewritten first', async () => {
    expect((await harness.call('GET', '/snapshots/files', {auth: true})).body.files).toEqual([])
    for (const body of [{repo: {version: '1.0.0'}}, {repo: {version: '1.1.0'}}]) expect((await harness.call('POST', '/links/api', {auth: true, body: JSON.stringify(body)})).status).toBe(200)
    expect((await harness.call('POST', '/tasks/API1/transition', {auth: true, body: JSON.stringify({status: 'active'})})).status).toBe(200)
    const files = (await harness.call('GET', '/snapshots/files', {auth: true})).body.files
    expect(files.map((file: {path: string; snapshots: number}) => [file.path, file.snapshots])).toEqual([
      ['modules/api/tasks/API1-first-task.md', 1],
      ['public/links.yaml', 1],
    ])
  })
})
