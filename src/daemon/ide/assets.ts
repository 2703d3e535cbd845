/**
 * The IDE's static files: the stylesheet and small scripts in `browser/`
 * (copied beside the compiled code by the build), served by hashed name under
 * `/ide/assets/`, immutable, with ETag/304 (src/http/static-assets.ts).
 */
import {fileURLToPath} from 'node:url'
import {ASSET_CACHE_CONTROL, createStaticAssets, type StaticAssets} from '../../http/static-assets.js'
import {answer, type Route} from '../route-table.js'
import {IDE_ASSET_PREFIX, IDE_HEADERS} from './constants.js'

export const IDE_BROWSER_DIR = fileURLToPath(new URL('./browser/', import.meta.url))

export const createIdeAssets = (dir: string = IDE_BROWSER_DIR): StaticAssets => createStaticAssets({dir, prefix: IDE_ASSET_PREFIX, label: 'IDE asset'})

export function assetRoutes(assets: StaticAssets): Route[] {
  return [
    {
      method: 'GET',
      path: `${IDE_ASSET_PREFIX}:file`,
      auth: 'none',
      handle(request) {
        const asset = assets.get(`${IDE_ASSET_PREFIX}${request.params.file}`)
        // No such file: the daemon's usual JSON 404.
        if (!asset) return answer(undefined, 404)
        const headers = {...IDE_HEADERS, 'Cache-Control': ASSET_CACHE_CONTROL, ETag: asset.etag}
        if (request.headers['if-none-match'] === asset.etag) return answer(undefined, 304, headers)
        return answer(asset.body, 200, {...headers, 'Content-Type': asset.type})
      },
    },
  ]
}
