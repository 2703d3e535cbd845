import {describe, expect, it} from 'vitest'
import {computeLayout, type LayoutAgent} from '../../../src/registry/site/network/layout.js'

const agents: LayoutAgent[] = [
  {id: 'c1', brand: 'acme', category: 'media.image'},
  {id: 'a1', brand: 'acme', category: 'media.image'},
  {id: 'b1', brand: 'acme', category: 'text.summarize'},
  {id: 'z1', brand: 'zeta', category: 'media.image'},
  {id: 'n1', brand: null, category: null},
  {id: 'n2', brand: null, category: 'text.summarize'},
  {id: 'd1', brand: 'beta', category: null},
]

const inside = (inner: {x: number; y: number; r: number}, outer: {x: number; y: number; r: number}) =>
  Math.hypot(inner.x - outer.x, inner.y - outer.y) + inner.r <= outer.r + 0.2

describe('network layout', () => {
  it('is the same for the same agents whatever order they come in', () => {
    const shuffled = [...agents].reverse()
    const a = computeLayout(agents)
    const b = computeLayout(shuffled)
    expect(b.groups).toEqual(a.groups)
    expect([...b.positions].sort()).toEqual([...a.positions].sort())
  })

  it('groups by brand, then category: brands first and sorted (no brand last), every agent inside its category inside its brand', () => {
    const layout = computeLayout(agents)
    const brands = layout.groups.filter((group) => group.kind === 'brand')
    expect(brands.map((group) => group.brand)).toEqual(['acme', 'beta', 'zeta', null])
    expect(layout.groups.slice(0, brands.length).every((group) => group.kind === 'brand')).toBe(true)
    const categories = layout.groups.filter((group) => group.kind === 'category').map((group) => [group.brand, group.category])
    expect(categories).toEqual([
      ['acme', 'media.image'],
      ['acme', 'text.summarize'],
      ['beta', null],
      ['zeta', 'media.image'],
      [null, 'text.summarize'],
      [null, null],
    ])
    for (const agent of agents) {
      const at = layout.positions.get(agent.id)!
      const category = layout.groups[at.group]
      expect([category.kind, category.brand, category.category]).toEqual(['category', agent.brand, agent.category])
      const brand = brands.find((group) => group.brand === agent.brand)!
      expect(inside(at, category)).toBe(true)
      expect(inside(category, brand)).toBe(true)
      expect(inside(brand, {x: layout.width / 2, y: layout.height / 2, r: layout.width / 2})).toBe(true)
    }
  })

  it('gives every agent the same size and no two agents overlap', () => {
    const many = Array.from({length: 300}, (_, i) => ({id: `agent-${i}`, brand: `b${i % 7}`, category: `c${i % 5}`}))
    const layout = computeLayout(many)
    const circles = [...layout.positions.values()]
    expect(new Set(circles.map((circle) => circle.r)).size).toBe(1)
    for (let i = 0; i < circles.length; i++) {
      for (let j = i + 1; j < circles.length; j++) {
        const [a, b] = [circles[i], circles[j]]
        expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThanOrEqual(a.r + b.r - 0.3)
      }
    }
  })

  it('lays out nothing for no agents', () => {
    expect(computeLayout([])).toEqual({width: 1000, height: 1000, groups: [], positions: new Map()})
  })
})
