import {describe, expect, it} from 'vitest'
import {compareIds, compareText} from '../../src/standard/compare.js'

describe('machine-independent orderings', () => {
  it('compareIds orders numbers inside ids as numbers', () => {
    expect(['GEN10', 'GEN2', 'API1', 'GEN1', 'GEN02', 'API10b', 'API10a'].sort(compareIds)).toEqual(['API1', 'API10a', 'API10b', 'GEN1', 'GEN02', 'GEN2', 'GEN10'])
  })
  it('compareIds is a total order: different ids never compare equal', () => {
    expect(compareIds('P01', 'P1')).not.toBe(0)
    expect(Math.sign(compareIds('P01', 'P1'))).toBe(-Math.sign(compareIds('P1', 'P01')))
    expect(compareIds('A1', 'A1')).toBe(0)
  })
  it('compareText is code-unit order, whatever the locale would say', () => {
    // Under lt_LT, localeCompare sorts "y" before "j"; generated files must not depend on that.
    expect(['yard', 'jobs', 'io', 'Zed'].sort(compareText)).toEqual(['Zed', 'io', 'jobs', 'yard'])
  })
})
