import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {parseQuickFlags, quickCommandId} from '../../src/cli/quick-run.js'

// The flags of `mesh task list` as oclif.manifest.json describes them (the quick path reads the same file).
const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8'))
const taskList = manifest.commands['task:list'].flags

describe('the quick path of bin/run.js', () => {
  it('takes only its own commands', () => {
    expect(quickCommandId(['task', 'list', '--json'])).toBe('task:list')
    expect(quickCommandId(['team', 'list'])).toBe('team:list')
    expect(quickCommandId(['daemon', 'status'])).toBe('daemon:status')
    expect(quickCommandId(['task', 'create'])).toBeUndefined()
    expect(quickCommandId(['task'])).toBeUndefined()
  })

  it('reads plain flags as oclif does', () => {
    expect(parseQuickFlags(['-s', 'next', '--status=active', '--module', 'api', '-Cdir', '--json'], taskList)).toEqual({status: ['next', 'active'], module: 'api', dir: 'dir', json: true, archived: false})
    expect(parseQuickFlags([], taskList)).toEqual({json: false, archived: false})
  })

  it.each([
    [['--help']],
    [['-h']],
    [['--bogus']],
    [['stray']],
    [['--module']],
    [['--module', '--json']],
    [['--module', 'a', '--module', 'b']],
    [['--json', '--json']],
    [['--json=true']],
    [['--status', 'next', 'active']],
    [['--', '--json']],
  ])('leaves %j to oclif', (argv) => {
    expect(parseQuickFlags(argv, taskList)).toBeUndefined()
  })

  it('leaves to oclif a flag of a kind it does not know (env, default, relationships…)', () => {
    expect(parseQuickFlags([], {...taskList, level: {name: 'level', type: 'option', env: 'MESH_LOG_LEVEL'}})).toBeUndefined()
    expect(parseQuickFlags([], {...taskList, color: {name: 'color', type: 'boolean', allowNo: true}})).toBeUndefined()
  })
})
