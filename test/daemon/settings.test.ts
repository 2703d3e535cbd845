/** cluster.yaml as the daemon reads it: the `architect` block's mesh additions (issue 20; docs/standard.md). */
import {afterEach, describe, expect, it} from 'vitest'
import {stringify} from 'yaml'
import {readDaemonSettings} from '../../src/daemon/settings.js'
import {CLUSTER, makeRepo, type FixtureRepo} from '../standard/fixtures.js'

let repo: FixtureRepo | undefined
afterEach(() => repo?.cleanup())

describe('readDaemonSettings: architect', () => {
  it('defaults to auto off and one automatic pass a minute', async () => {
    repo = makeRepo()
    expect((await readDaemonSettings(repo.root)).architect).toEqual({auto: false, minIntervalSeconds: 60})
  })

  it('reads auto and min_interval_seconds (0: no debounce); an unusable value keeps its default and is said', async () => {
    repo = makeRepo({'.mesh/public/cluster.yaml': stringify({...CLUSTER, architect: {port: 5571, auto: true, min_interval_seconds: 0}})})
    const settings = await readDaemonSettings(repo.root)
    expect(settings).toMatchObject({port: 5571, architect: {auto: true, minIntervalSeconds: 0}, problems: []})
    repo.write('.mesh/public/cluster.yaml', stringify({...CLUSTER, architect: {auto: 'yes', min_interval_seconds: -5}}))
    const bad = await readDaemonSettings(repo.root)
    expect(bad.architect).toEqual({auto: false, minIntervalSeconds: 60})
    expect(bad.problems).toEqual(['architect.auto is not usable ("yes"); using false', 'architect.min_interval_seconds is not usable (-5); using 60'])
  })
})
