/** Great-circle distance for the `near`/`km` filter. spec: posts query `near=<lat>,<lon>`, `km=<radius>`. */
import {EARTH_RADIUS_KM} from './constants.js'

export interface Point {
  lat: number
  lon: number
}

const rad = (deg: number) => (deg * Math.PI) / 180

/** Haversine distance in km between two points (mean Earth radius). */
export function distanceKm(a: Point, b: Point): number {
  const dLat = rad(b.lat - a.lat)
  const dLon = rad(b.lon - a.lon)
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))
}

const NEAR = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/

/** Parses `<lat>,<lon>`; null when malformed or out of range. */
export function parseNear(text: string): Point | null {
  const match = NEAR.exec(text)
  if (!match) return null
  const lat = Number(match[1])
  const lon = Number(match[2])
  if (!(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180)) return null
  return {lat, lon}
}

/** Distances are shown to the metre. */
export const roundKm = (km: number) => Math.round(km * 1000) / 1000
