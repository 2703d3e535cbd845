import {readFile, writeFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {buildDepGraph, createTask, findCycles, MAX_TREE_DEPTH, renderDepTree, taskDependencies} from '../../../src/standard/tasks/index.js'
import {tempProject} from '../scaffold/temp-project.js'

const record = (id: string, depends: string[] = [], archived = false) => ({
  id,
  module: 'general',
  path: `/p/${id}-x.md`,
  relativePath: `${id}-x.md`,
  archived,
  data: {id, title: `Task ${id}`, status: archived ? 'done' : 'next', depends_on: depends},
})

describe('dependency graph', () => {
  it('builds nodes and edges and renders a tree', () => {
    const graph = buildDepGraph([record('A3', ['A1', 'A2']), record('A2', ['A1']), record('A1'), record('A4')])
    expect(graph.edges).toEqual([{from: 'A2', to: 'A1'}, {from: 'A3', to: 'A1'}, {from: 'A3', to: 'A2'}])
    expect(graph.cycles).toEqual([])
    expect(renderDepTree(graph)).toBe(
      ['A3 Task A3 [next]', '├── A1 Task A1 [next]', '└── A2 Task A2 [next]', '    └── A1 Task A1 [next]', '', '1 task without dependencies.'].join('\n'),
    )
  })

  it('limits the graph to what one task needs, archived dependencies included', () => {
    const graph = buildDepGraph([record('A3', ['A0']), record('A0', [], true), record('A5')], 'A3')
    expect(graph.nodes.map((node) => [node.id, node.archived])).toEqual([['A0', true], ['A3', false]])
    expect(renderDepTree(graph)).toBe('A3 Task A3 [next]\n└── A0 Task A0 [done] (archived)')
  })

  it('reports cycles, self-loops and missing ids', () => {
    const graph = buildDepGraph([record('A1', ['A2']), record('A2', ['A3']), record('A3', ['A1']), record('A4', ['A4']), record('A5', ['ZZ9'])])
    expect(graph.cycles).toEqual([['A1', 'A2', 'A3'], ['A4']])
    expect(graph.missing).toEqual(['ZZ9'])
    const tree = renderDepTree(graph)
    expect(tree).toContain('(cycle)')
    expect(tree).toContain('ZZ9 (missing: no task has this id)')
    expect(tree).toContain('cycle: A1 → A2 → A3 → A1')
  })

  it('findCycles finds none in a DAG', () => {
    const next: Record<string, string[]> = {a: ['b', 'c'], b: ['c'], c: []}
    expect(findCycles(['a', 'b', 'c'], (id) => next[id])).toEqual([])
  })

  it('handles a chain of 30,000 tasks and a 30,000-long cycle without overflowing the stack', () => {
    const length = 30_000
    const chain = Array.from({length}, (_, i) => record(`A${i + 1}`, i === 0 ? [] : [`A${i}`]))
    const graph = buildDepGraph(chain)
    expect(graph.nodes).toHaveLength(length)
    expect(graph.cycles).toEqual([])
    const lines = renderDepTree(graph).split('\n')
    // Every task once in full, plus one "(continued below)" line per MAX_TREE_DEPTH levels; indentation stays bounded.
    expect(lines.filter((line) => / Task A\d+ \[next\]$/.test(line))).toHaveLength(length)
    expect(lines.filter((line) => line.endsWith('(continued below)'))).toHaveLength(Math.floor((length - 1) / MAX_TREE_DEPTH))
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(MAX_TREE_DEPTH * 4 + 60)
    expect(lines[0]).toBe(`A${length} Task A${length} [next]`)
    expect(lines.at(-1)).toMatch(/└── A1 Task A1 \[next\]$/)

    const cyclic = buildDepGraph(chain.map((task, i) => (i === 0 ? record('A1', [`A${length}`]) : task)))
    expect(cyclic.cycles).toHaveLength(1)
    expect(cyclic.cycles[0]).toHaveLength(length)
    // Continued branches start a fresh path, so the way back shows as "(see above)"; the cycle itself is listed at the end.
    expect(renderDepTree(cyclic)).toMatch(/^cycle: A1 → A2 → A3 → /m)
    expect(buildDepGraph(chain, `A${length}`).nodes).toHaveLength(length)
  })

  it('reads depends_on from the project files', async () => {
    const root = await tempProject()
    const a = await createTask(root, {module: 'general', title: 'A'})
    await createTask(root, {module: 'general', title: 'B', dependsOn: [a.id]})
    const path = join(root, a.path)
    await writeFile(path, (await readFile(path, 'utf8')).replace('updated:', 'depends_on: [GEN2]\nupdated:'))
    const graph = await taskDependencies(root, 'gen2')
    expect(graph.root).toBe('GEN2')
    expect(graph.cycles).toEqual([['GEN1', 'GEN2']])
    await expect(taskDependencies(root, 'NOPE1')).rejects.toMatchObject({code: 'task_unknown'})
  })
})
