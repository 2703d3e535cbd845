/**
 * The IDE's stylesheets as text, for the one page that carries them inline:
 * `.mesh/architect/roadmap.html`, opened from disk where no daemon serves
 * `/ide/assets/` (src/daemon/state/roadmap-page.ts). Read once from the same
 * files the daemon serves, so the static page looks like the IDE's view.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {IDE_BROWSER_DIR} from './assets.js'

const cache = new Map<string, string>()

/** The named stylesheets of `browser/`, joined. */
export function stylesheetText(names: readonly string[]): string {
  return names
    .map((name) => {
      let text = cache.get(name)
      if (text === undefined) cache.set(name, (text = readFileSync(join(IDE_BROWSER_DIR, name), 'utf8')))
      return text
    })
    .join('\n')
}
