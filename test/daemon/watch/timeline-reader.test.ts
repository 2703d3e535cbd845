import {appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {createTimelineReader} from '../../../src/daemon/watch/timeline-reader.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mesh-timeline-'))
  mkdirSync(join(dir, 'timeline'))
})
afterEach(() => rmSync(dir, {recursive: true, force: true}))

const line = (text: string) => JSON.stringify({ts: '2026-01-05T10:00:00.000Z', type: 'chat.user', author: 'me', text}) + '\n'

describe('timeline reader', () => {
  it('reads only what was appended since the last read, whole lines only', async () => {
    const file = join(dir, 'timeline', '2026-01-05.jsonl')
    writeFileSync(file, line('old'))
    const reader = createTimelineReader()
    await reader.seed(join(dir, 'timeline'), 'timeline')
    appendFileSync(file, line('one') + line('two') + '{"ts":"2026-01-05T10:00:01.000Z","te')
    const first = await reader.readAppended('timeline/2026-01-05.jsonl', file, statSync(file))
    expect(first.events.map((event) => event.text)).toEqual(['one', 'two'])
    // Still no newline: nothing yet, and nothing lost.
    expect((await reader.readAppended('timeline/2026-01-05.jsonl', file, statSync(file))).events).toEqual([])
    appendFileSync(file, 'xt":"three"}\n')
    const second = await reader.readAppended('timeline/2026-01-05.jsonl', file, statSync(file))
    expect(second.events.map((event) => event.text)).toEqual(['three'])
  })

  it('skips lines that are not JSON objects and counts them', async () => {
    const file = join(dir, 'timeline', '2026-01-06.jsonl')
    writeFileSync(file, line('a') + 'not json\n[1]\n\n' + line('b'))
    const read = await createTimelineReader().readAppended('timeline/2026-01-06.jsonl', file, statSync(file))
    expect(read.events.map((event) => event.text)).toEqual(['a', 'b'])
    expect(read.skipped).toBe(2)
  })

  it('reads a truncated or replaced file from its start', async () => {
    const file = join(dir, 'timeline', '2026-01-05.jsonl')
    writeFileSync(file, line('a') + line('b'))
    const reader = createTimelineReader()
    await reader.seed(join(dir, 'timeline'), 'timeline')
    writeFileSync(file, line('c'))
    expect((await reader.readAppended('timeline/2026-01-05.jsonl', file, statSync(file))).events.map((event) => event.text)).toEqual(['c'])
    // Replaced (renamed over) by another file of the same size: another inode.
    writeFileSync(join(dir, 'other.jsonl'), line('d'))
    renameSync(join(dir, 'other.jsonl'), file)
    expect((await reader.readAppended('timeline/2026-01-05.jsonl', file, statSync(file))).events.map((event) => event.text)).toEqual(['d'])
  })

  it('skips a line longer than one read and goes on with the next ones', async () => {
    const file = join(dir, 'timeline', '2026-01-07.jsonl')
    writeFileSync(file, `{"text":"${'x'.repeat(1536 * 1024)}"}\n` + line('after'))
    const read = await createTimelineReader().readAppended('timeline/2026-01-07.jsonl', file, statSync(file))
    expect(read.events.map((event) => event.text)).toEqual(['after'])
    expect(read.skipped).toBeGreaterThan(0)
  })
})
