/**
 * The site's static files: the stylesheets and small scripts in `browser/`
 * (copied beside the compiled code by the build) and files made at start
 * (the world map). Each is served under a name carrying its content hash,
 * `/site/<name>.<hash>.<ext>`, cached for a year: a new release changes
 * the name, so a browser never runs an old script against a new page.
 */
import {createHash} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import {extname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {SITE_ASSET_PREFIX} from './constants.js'

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
}

export interface SiteAsset {
  /** The hashed path it is served at. */
  path: string
  type: string
  body: Buffer
  /** Strong ETag: the content hash. */
  etag: string
}

export interface SiteAssets {
  /** The served path of `name` (`network.js`); throws for a name that was never loaded (a programming error). */
  url(name: string): string
  /** The asset served at `path`, if any. */
  get(path: string): SiteAsset | undefined
  /** Adds a file made at run time (`world.svg`) and returns its path. */
  add(name: string, body: string | Buffer): string
}

export const BROWSER_DIR = fileURLToPath(new URL('./browser/', import.meta.url))

export function createSiteAssets(dir: string = BROWSER_DIR): SiteAssets {
  const byName = new Map<string, SiteAsset>()
  const byPath = new Map<string, SiteAsset>()
  const add = (name: string, body: string | Buffer) => {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8')
    const ext = extname(name)
    const type = TYPES[ext]
    if (!type) throw new TypeError(`Site asset ${name} has an extension the site does not serve`)
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12)
    const asset = {path: `${SITE_ASSET_PREFIX}${name.slice(0, -ext.length)}.${hash}${ext}`, type, body: bytes, etag: `"${hash}"`}
    const previous = byName.get(name)
    if (previous) byPath.delete(previous.path)
    byName.set(name, asset)
    byPath.set(asset.path, asset)
    return asset.path
  }
  for (const name of readdirSync(dir)) if (TYPES[extname(name)]) add(name, readFileSync(join(dir, name)))
  return {
    url(name) {
      const asset = byName.get(name)
      if (!asset) throw new TypeError(`No site asset named ${name}`)
      return asset.path
    },
    get: (path) => byPath.get(path),
    add,
  }
}
