import {describe, expect, it} from 'vitest'
import {bumpVersion, parseVersion} from '../../../src/daemon/versions/semver.js'

describe('versions the daemon issues', () => {
  it('bumps one part and zeroes the lower ones', () => {
    expect(bumpVersion([1, 2, 3], 'patch')).toBe('1.2.4')
    expect(bumpVersion([1, 2, 3], 'minor')).toBe('1.3.0')
    expect(bumpVersion([1, 2, 3], 'major')).toBe('2.0.0')
    expect(bumpVersion(parseVersion('0.0.0')!, 'patch')).toBe('0.0.1')
    expect(bumpVersion(parseVersion('0.9.9')!, 'minor')).toBe('0.10.0')
  })

  it('reads only plain MAJOR.MINOR.PATCH within safe integers', () => {
    expect(parseVersion('10.20.30')).toEqual([10, 20, 30])
    for (const bad of ['v1.2.3', '1.2', '1.2.3.4', '01.2.3', '1.2.3-beta.1', '1.2.3+build', ' 1.2.3', '', '1.2.x', `1.2.${'9'.repeat(20)}`]) {
      expect(parseVersion(bad), bad).toBeNull()
    }
  })
})
