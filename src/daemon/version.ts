/** The package's own version, read once from its package.json (two levels above dist/daemon/ and src/daemon/). */
import {readFileSync} from 'node:fs'

let cached: string | undefined

export function packageVersion(): string {
  if (cached === undefined) {
    try {
      cached = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {version?: string}).version ?? '0.0.0'
    } catch {
      cached = '0.0.0'
    }
  }
  return cached
}
