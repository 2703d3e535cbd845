import {describe, expect, it} from 'vitest'
import {GRAPH_MAX_NODES, renderDependencyGraph, type GraphTask} from '../../../src/daemon/state/roadmap-graph.js'

const task = (id: string, depends_on: string[] = [], status = 'next'): GraphTask => ({id, title: `Task ${id}`, status, depends_on})
const graphOf = (tasks: GraphTask[]) => renderDependencyGraph(tasks, new Map(tasks.map((entry) => [entry.id, entry])), 'the group', 'k')?.value ?? null
/** Each node's id and x position, as drawn. */
const columns = (svg: string) => Object.fromEntries([...svg.matchAll(/translate\((\d+) \d+\)"><title>(\S+)/g)].map((match) => [match[2], Number(match[1])]))

describe('the dependency graph', () => {
  it('is nothing when no task depends on another', () => {
    expect(graphOf([task('A1'), task('A2')])).toBeNull()
  })

  it('puts each task right of everything it waits on', () => {
    const x = columns(graphOf([task('A1'), task('A2', ['A1']), task('A3', ['A1', 'A2']), task('A4', ['A1'])])!)
    expect(x.A1).toBeLessThan(x.A2)
    expect(x.A2).toBeLessThan(x.A3)
    expect(x.A4).toBe(x.A2)
  })

  it('draws a cycle without looping, and a missing dependency as such', () => {
    const svg = graphOf([task('A1', ['A2']), task('A2', ['A1']), task('A3', ['ZZ9'])])!
    expect(svg.match(/<g class="node /g)).toHaveLength(4)
    expect(svg).toContain('<title>ZZ9: no task has this id</title>')
  })

  it(`draws at most ${GRAPH_MAX_NODES} nodes and says how many more there are`, () => {
    const chain = Array.from({length: GRAPH_MAX_NODES + 10}, (_, index) => task(`A${index}`, index ? [`A${index - 1}`] : []))
    const svg = graphOf(chain)!
    expect(svg.match(/<g class="node /g)).toHaveLength(GRAPH_MAX_NODES)
    expect(svg).toContain('(10 more tasks not drawn; the table lists them all)')
  })
})
