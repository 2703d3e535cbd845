import {existsSync, utimesSync} from 'node:fs'
import {join} from 'node:path'
import {stringify} from 'yaml'
import {afterEach, describe, expect, it} from 'vitest'
import {createDaemon, type Daemon} from '../../../src/daemon/daemon.js'
import {createStorageArea, type StorageArea} from '../../../src/daemon/storage/index.js'
import type {PruneReport} from '../../../src/daemon/storage/prune.js'
import type {Timers} from '../../../src/daemon/storage/pruner.js'
import {CLUSTER, makeRepo, type FixtureRepo} from '../../standard/fixtures.js'

const DAY = 24 * 60 * 60 * 1000
let repo: FixtureRepo | undefined
let daemon: Daemon | undefined
afterEach(async () => {
  await daemon?.service.close('server_shutdown')
  daemon = undefined
  repo?.cleanup()
  repo = undefined
})

/** Timers that never fire on their own: the test runs the hourly tick. */
function manualTimers() {
  const ticks: Array<{run: () => void; ms: number}> = []
  let cleared = 0
  const timers: Timers = {
    setInterval: (run, ms) => ticks.push({run, ms}),
    clearInterval: () => void cleared++,
  }
  return {timers, ticks, cleared: () => cleared}
}

async function boot(clock: () => number, timers: Timers, snapshots?: Record<string, unknown>) {
  repo = makeRepo({
    '.mesh/public/cluster.yaml': stringify({...CLUSTER, ...(snapshots ? {snapshots} : {})}),
    '.mesh/snapshots/2026-01-01/index.jsonl': '\n',
    '.mesh/snapshots/2026-01-09/index.jsonl': '\n',
    '.mesh/uploads/a.png': 'png',
  })
  let area: StorageArea | undefined
  // Each pass's report, as the area hands it out: proves a pass ran without the test starting one.
  const waiting: Array<(report: PruneReport) => void> = []
  const reports: PruneReport[] = []
  const onPruned = (report: PruneReport) => (waiting.length ? waiting.shift()!(report) : reports.push(report))
  const nextPass = () => (reports.length ? Promise.resolve(reports.shift()!) : new Promise<PruneReport>((resolve) => waiting.push(resolve)))
  daemon = await createDaemon({root: repo.root, clock, areas: [(context) => (area = createStorageArea(context, {timers, onPruned}))]})
  return {area: area!, root: repo.root, nextPass}
}

describe('storage pruning in the daemon', () => {
  it('prunes at start, then at every hourly tick with the injected clock, and logs one storage.prune line each time', async () => {
    let now = Date.parse('2026-01-10T12:00:00.000Z')
    const manual = manualTimers()
    const {root, nextPass} = await boot(() => now, manual.timers, {retention_days: 7})
    utimesSync(join(root, '.mesh/uploads/a.png'), (now - DAY) / 1000, (now - DAY) / 1000)
    await daemon!.service.start?.()
    const first = await nextPass()
    expect(first.snapshot_days_removed).toEqual(['2026-01-01'])
    expect(existsSync(join(root, '.mesh/snapshots/2026-01-09'))).toBe(true)
    expect(manual.ticks).toHaveLength(1)
    expect(manual.ticks[0].ms).toBe(60 * 60 * 1000)
    const [line] = daemon!.context.debug.tail({lastSecs: 60, tags: ['storage.prune']}).events
    expect(line).toMatchObject({lvl: 'info', tag: 'storage.prune', data: {snapshot_days_removed: ['2026-01-01'], uploads_removed: 0}})
    expect(line.msg).toMatch(/1 snapshot day folder\(s\) removed, 0 upload\(s\) removed/)

    // Forty days on: the other day folder and the upload are past their retention.
    now += 40 * DAY
    manual.ticks[0].run()
    const second = await nextPass()
    expect(second).toMatchObject({snapshot_days_removed: ['2026-01-09'], uploads_removed: 1})
    expect(existsSync(join(root, '.mesh/snapshots/2026-01-09'))).toBe(false)
    expect(existsSync(join(root, '.mesh/uploads/a.png'))).toBe(false)
    const lines = daemon!.context.debug.tail({lastSecs: 60, tags: ['storage.prune']}).events
    expect(lines).toHaveLength(1)
    expect(lines[0].data).toMatchObject({snapshot_days_removed: ['2026-01-09'], uploads_removed: 1})

    await daemon!.service.close('server_shutdown')
    daemon = undefined
    expect(manual.cleared()).toBe(1)
  })

  it('keeps every snapshot when cluster.yaml turns snapshots off, and says so', async () => {
    const now = Date.parse('2026-01-10T12:00:00.000Z')
    const manual = manualTimers()
    const {area, root, nextPass} = await boot(() => now, manual.timers, {enabled: false})
    await daemon!.service.start?.()
    await nextPass()
    // prune() runs a pass on demand too.
    const report = await area.prune()
    expect(report.snapshots_skipped).toBe('disabled')
    expect(existsSync(join(root, '.mesh/snapshots/2026-01-01'))).toBe(true)
    const lines = daemon!.context.debug.tail({lastSecs: 1800, tags: ['storage.prune']}).events
    expect(lines).toHaveLength(2)
    expect(lines[1].msg).toMatch(/snapshots kept \(snapshots.enabled is false\)/)
  })
})
