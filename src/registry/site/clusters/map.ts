/**
 * The world map of the clusters pages, drawn on the server from shipped
 * geometry (world-atlas land-110m, topojson-client, d3-geo): no tile
 * server, these machines have no internet. The land is one SVG file made
 * once at start and served as a hashed asset with its own light and dark
 * colours; a page embeds it in an inline `<svg>` and adds its points,
 * projected here with the same projection.
 */
import {createRequire} from 'node:module'
import {geoEqualEarth, geoPath, type GeoPermissibleObjects} from 'd3-geo'
import {feature} from 'topojson-client'
import {html, type Html} from '../html.js'
import {MAP_DIGITS, MAP_MARGIN, MAP_POINT_RADIUS, MAP_WIDTH} from './constants.js'

const require = createRequire(import.meta.url)

export interface MapPoint {
  lat: number
  lon: number
  /** Where the point links to (a cluster page, a post's anchor). */
  href: string
  /** The tooltip and accessible text of the point. */
  label: string
}

export interface WorldMap {
  width: number
  height: number
  /** The map's land drawing as an SVG document (the `world.svg` asset). */
  svg: string
  /** [x, y] in the map's box, or null for a point outside the globe (invalid coordinates). */
  project(lon: number, lat: number): [number, number] | null
}

const SPHERE = {type: 'Sphere'} as const

/** Builds the projection, fitted to the box, and draws the land once. */
export function createWorldMap(): WorldMap {
  const topology = require('world-atlas/land-110m.json') as Parameters<typeof feature>[0]
  const land = feature(topology, topology.objects.land) as GeoPermissibleObjects
  const projection = geoEqualEarth().fitWidth(MAP_WIDTH - 2 * MAP_MARGIN, SPHERE)
  const path = geoPath(projection).digits(MAP_DIGITS)
  const [[, top], [, bottom]] = path.bounds(SPHERE)
  const height = Math.ceil(bottom - top) + 2 * MAP_MARGIN
  projection.translate([MAP_WIDTH / 2, height / 2])
  const sphere = path(SPHERE) ?? ''
  const landPath = path(land) ?? ''
  // Own colours for light and dark: an image cannot read the page's stylesheet.
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${MAP_WIDTH} ${height}" width="${MAP_WIDTH}" height="${height}">`,
    '<style>.sea{fill:#dfe9f5;stroke:#a9b9cc;stroke-width:1}.land{fill:#cbd5c4;stroke:#8a9a86;stroke-width:.5}',
    '@media (prefers-color-scheme: dark){.sea{fill:#1a2431;stroke:#3a4a5e}.land{fill:#38433a;stroke:#56655a}}</style>',
    `<path class="sea" d="${sphere}"/>`,
    `<path class="land" d="${landPath}"/>`,
    '</svg>',
  ].join('')
  return {
    width: MAP_WIDTH,
    height,
    svg,
    project(lon, lat) {
      if (!Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null
      const xy = projection([lon, lat])
      return xy && Number.isFinite(xy[0]) && Number.isFinite(xy[1]) ? [round(xy[0]), round(xy[1])] : null
    },
  }
}

const round = (n: number) => Math.round(n * 10) / 10

/**
 * The map as an inline `<svg role="group">` named by its title and
 * described by `description` (the list beside it is the text alternative),
 * with the land as a decorative `<image>` and every point a link named by its
 * label, with a tooltip. A group, not `role="img"`: an image's children are
 * presentational, so links inside one are focusable controls nested in a
 * non-interactive image (axe nested-interactive, serious).
 */
export function mapFigure(map: WorldMap, landUrl: string, options: {id: string; title: string; description: string; points: MapPoint[]}): Html {
  const titleId = `${options.id}-title`
  const descId = `${options.id}-desc`
  const points = options.points.flatMap((point) => {
    const xy = map.project(point.lon, point.lat)
    return xy
      ? [html`<a href="${point.href}" aria-label="${point.label}"><circle class="point" cx="${xy[0]}" cy="${xy[1]}" r="${MAP_POINT_RADIUS}"><title>${point.label}</title></circle></a>`]
      : []
  })
  return html`<svg class="world-map" id="${options.id}" role="group" aria-labelledby="${titleId}" aria-describedby="${descId}" viewBox="0 0 ${map.width} ${map.height}" preserveAspectRatio="xMidYMid meet"><title id="${titleId}">${options.title}</title><desc id="${descId}">${options.description}</desc><image href="${landUrl}" aria-hidden="true" x="0" y="0" width="${map.width}" height="${map.height}"/>${points}</svg>`
}
