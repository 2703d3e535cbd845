/**
 * Static files of a web part (the registry site's `browser/`, the daemon
 * IDE's): stylesheets and small scripts read from a folder the build copies
 * beside the compiled code, plus files made at start. Each is served under a
 * name carrying its content hash, `<prefix><name>.<hash>.<ext>`, cached for a
 * year: a new release changes the name, so a browser never runs an old
 * script against a new page.
 */
import {createHash} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import {extname, join} from 'node:path'

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
}

/** Hashed assets never change under their name. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable'

export interface StaticAsset {
  /** The hashed path it is served at. */
  path: string
  type: string
  body: Buffer
  /** Strong ETag: the content hash. */
  etag: string
}

export interface StaticAssets {
  /** The served path of `name` (`network.js`); throws for a name that was never loaded (a programming error). */
  url(name: string): string
  /** The asset served at `path`, if any. */
  get(path: string): StaticAsset | undefined
  /** Adds a file made at run time (`world.svg`) and returns its path. */
  add(name: string, body: string | Buffer): string
}

export interface StaticAssetsOptions {
  /** The folder whose .css, .js, .svg and .json files are served. */
  dir: string
  /** The path every asset is served under, with its slashes: `/site/`. */
  prefix: string
  /** Names the errors use: `Site asset`. */
  label?: string
}

export function createStaticAssets(options: StaticAssetsOptions): StaticAssets {
  const label = options.label ?? 'Static asset'
  const byName = new Map<string, StaticAsset>()
  const byPath = new Map<string, StaticAsset>()
  const add = (name: string, body: string | Buffer) => {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8')
    const ext = extname(name)
    const type = TYPES[ext]
    if (!type) throw new TypeError(`${label} ${name} has an extension that is not served`)
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12)
    const asset = {path: `${options.prefix}${name.slice(0, -ext.length)}.${hash}${ext}`, type, body: bytes, etag: `"${hash}"`}
    const previous = byName.get(name)
    if (previous) byPath.delete(previous.path)
    byName.set(name, asset)
    byPath.set(asset.path, asset)
    return asset.path
  }
  for (const name of readdirSync(options.dir)) if (TYPES[extname(name)]) add(name, readFileSync(join(options.dir, name)))
  return {
    url(name) {
      const asset = byName.get(name)
      if (!asset) throw new TypeError(`No ${label.toLowerCase()} named ${name}`)
      return asset.path
    },
    get: (path) => byPath.get(path),
    add,
  }
}
