import {describe, expect, it} from 'vitest'
import {assertRestorable, toMeshRelative} from '../../../src/daemon/snapshots/paths.js'
import {parseSnapshotTime, snapshotTime} from '../../../src/daemon/snapshots/time.js'

describe('parseSnapshotTime', () => {
  it('reads ISO date-times with their zone, and a date as the end of that UTC day', () => {
    expect(parseSnapshotTime('2026-01-05T10:00:00Z')).toBe(Date.parse('2026-01-05T10:00:00Z'))
    expect(parseSnapshotTime('2026-01-05T10:00Z')).toBe(Date.parse('2026-01-05T10:00:00Z'))
    expect(parseSnapshotTime('2026-01-05T12:00:00.250+02:00')).toBe(Date.parse('2026-01-05T10:00:00.250Z'))
    expect(parseSnapshotTime('2026-01-05')).toBe(Date.parse('2026-01-05T23:59:59.999Z'))
  })

  it('refuses what is not such a time', () => {
    for (const bad of ['', 'yesterday', '2026-01-05T10:00:00', '2026-02-30', '2026-02-30T10:00:00Z', '2026-01-05T24:00:00Z', '2026-13-01', '1736071200000', '2026-01-05 10:00:00Z']) {
      expect(parseSnapshotTime(bad), bad).toBeNull()
    }
    expect(() => snapshotTime('soon', 'usage_bad_time', '--at')).toThrow(expect.objectContaining({code: 'usage_bad_time', field: '--at'}))
  })
})

describe('toMeshRelative', () => {
  const root = '/repo'
  it('takes a path relative to .mesh/, to the repository root, or absolute inside .mesh/', () => {
    expect(toMeshRelative(root, 'public/links.yaml')).toBe('public/links.yaml')
    expect(toMeshRelative(root, '.mesh/public/links.yaml')).toBe('public/links.yaml')
    expect(toMeshRelative(root, './.mesh/public/../public/links.yaml')).toBe('public/links.yaml')
    expect(toMeshRelative(root, '/repo/.mesh/public/links.yaml')).toBe('public/links.yaml')
  })

  it('refuses a path that leaves .mesh/, is empty or is .mesh/ itself (invalid_path)', () => {
    for (const bad of ['../package.json', '.mesh/../package.json', 'public/../../x', '/etc/passwd', '/repo/.mesh', '.mesh', '', ' ', 'a\0b', 'x'.repeat(2000)]) {
      expect(() => toMeshRelative(root, bad), JSON.stringify(bad.slice(0, 20))).toThrow(expect.objectContaining({code: 'invalid_path', kind: 'invalid'}))
    }
  })

  it('never restores credentials/, .runtime/ or snapshots/', () => {
    for (const path of ['credentials/team-tokens.yaml', '.runtime/daemon.json', 'snapshots/2026-01-01/index.jsonl']) {
      expect(() => assertRestorable(path)).toThrow(expect.objectContaining({code: 'restore_not_allowed', kind: 'forbidden'}))
    }
    expect(() => assertRestorable('public/links.yaml')).not.toThrow()
  })
})
