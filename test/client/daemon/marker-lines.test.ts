import {describe, expect, it} from 'vitest'
import {markerLineFilter} from '../../../src/client/daemon/marker-lines.js'

const run = (lines: string[]) => {
  const filter = markerLineFilter()
  return {shown: lines.flatMap((line) => filter.push(line)), rest: filter.end()}
}

describe('markerLineFilter', () => {
  it('hides closed marker blocks and keeps every other line, other fences included', () => {
    expect(run(['hello', '```mesh-report', '{"status": "done"}', '```', '```ts', 'const x = 1', '```', 'bye']).shown).toEqual(['hello', '```ts', 'const x = 1', '```', 'bye'])
  })

  it('closes a block only on its own fence length', () => {
    expect(run(['````mesh-delegate', '```', 'still inside', '````', 'after']).shown).toEqual(['after'])
  })

  it('gives back the lines of a block that never closed', () => {
    expect(run(['a', '```mesh-commit', '{"subject": "x"}'])).toEqual({shown: ['a'], rest: ['```mesh-commit', '{"subject": "x"}']})
  })
})
