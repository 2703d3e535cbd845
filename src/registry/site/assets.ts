/**
 * The site's static files: the stylesheets and small scripts in `browser/`
 * (copied beside the compiled code by the build) and files made at start
 * (the world map), each under `/site/<name>.<hash>.<ext>`
 * (src/http/static-assets.ts).
 */
import {fileURLToPath} from 'node:url'
import {createStaticAssets, type StaticAsset, type StaticAssets} from '../../http/static-assets.js'
import {SITE_ASSET_PREFIX} from './constants.js'

export type SiteAsset = StaticAsset
export type SiteAssets = StaticAssets

export const BROWSER_DIR = fileURLToPath(new URL('./browser/', import.meta.url))

export const createSiteAssets = (dir: string = BROWSER_DIR): SiteAssets => createStaticAssets({dir, prefix: SITE_ASSET_PREFIX, label: 'Site asset'})
