/**
 * The network graph's layout, computed on the server with d3-hierarchy's
 * circle packing: root → brand → category → agent, each agent one unit.
 * Children are sorted by name (agents by id) before packing, so the same
 * agents always give the same picture, on every node.
 */
import {hierarchy, pack, type HierarchyCircularNode} from 'd3-hierarchy'
import {LAYOUT_PADDING, LAYOUT_SIZE} from './constants.js'

/** What the layout needs of an agent. */
export interface LayoutAgent {
  id: string
  brand: string | null
  category: string | null
}

/** A brand circle, or a category circle inside one. `brand`/`category` null: the card names none. */
export interface LayoutGroup {
  kind: 'brand' | 'category'
  brand: string | null
  category: string | null
  x: number
  y: number
  r: number
}

export interface Layout {
  width: number
  height: number
  /** Brands first (sorted), then every category (sorted by brand, then category). */
  groups: LayoutGroup[]
  /** By agent id: its circle and the index of its category group in `groups`. */
  positions: Map<string, {x: number; y: number; r: number; group: number}>
}

interface Datum {
  key: string | null
  id?: string
  children?: Datum[]
}

// Sorts keys with null (no brand / no category) last.
const byKey = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1)

const round = (value: number) => Math.round(value * 10) / 10

/** Packs the agents into circles grouped by brand, then category. Deterministic for the same set of agents. */
export function computeLayout(agents: Iterable<LayoutAgent>, size = LAYOUT_SIZE): Layout {
  const brands = new Map<string | null, Map<string | null, string[]>>()
  for (const agent of agents) {
    let categories = brands.get(agent.brand)
    if (!categories) brands.set(agent.brand, (categories = new Map()))
    let ids = categories.get(agent.category)
    if (!ids) categories.set(agent.category, (ids = []))
    ids.push(agent.id)
  }
  const root: Datum = {
    key: null,
    children: [...brands.keys()].sort(byKey).map((brand) => {
      const categories = brands.get(brand)!
      return {
        key: brand,
        children: [...categories.keys()].sort(byKey).map((category) => ({
          key: category,
          children: categories.get(category)!.sort().map((id) => ({key: id, id})),
        })),
      }
    }),
  }
  const groups: LayoutGroup[] = []
  const positions: Layout['positions'] = new Map()
  if (brands.size === 0) return {width: size, height: size, groups, positions}
  // No .sort() on the hierarchy: the input order above is the order packed.
  const packed = pack<Datum>()
    .size([size, size])
    .padding((node) => (node.depth === 0 ? LAYOUT_PADDING.root : node.depth === 1 ? LAYOUT_PADDING.brand : LAYOUT_PADDING.category))(
    hierarchy(root).count(),
  )
  const circle = (node: HierarchyCircularNode<Datum>) => ({x: round(node.x), y: round(node.y), r: round(node.r)})
  const brandNodes = packed.children ?? []
  for (const brand of brandNodes) groups.push({kind: 'brand', brand: brand.data.key, category: null, ...circle(brand)})
  for (const brand of brandNodes) {
    for (const category of brand.children ?? []) {
      const group = groups.push({kind: 'category', brand: brand.data.key, category: category.data.key, ...circle(category)}) - 1
      for (const leaf of category.children ?? []) positions.set(leaf.data.id!, {...circle(leaf), group})
    }
  }
  return {width: size, height: size, groups, positions}
}
