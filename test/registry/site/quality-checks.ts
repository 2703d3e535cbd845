/** What the quality and hostile-input page tests check on every page (shared by both). */
import type {Page} from 'playwright-core'
import type {SeededSite} from './quality-fixture.js'

/** The bar: no page over 200 KB. */
export const MAX_PAGE_BYTES = 200 * 1024

export interface SitePage {
  name: string
  path: string
  status: number
  /** Text a person must see in `<main>`, with JavaScript on and off. */
  shows: string
}

/** Every page of the site for the seeded data set. */
export function sitePages(seeded: SeededSite): SitePage[] {
  return [
    {name: 'agent-online', path: `/agent/${seeded.onlineAgent}`, status: 200, shows: 'Lighthouse Painter'},
    {name: 'agent-offline', path: `/agent/${seeded.offlineAgent}`, status: 200, shows: 'Quiet Agent'},
    {name: 'network', path: '/network', status: 200, shows: seeded.agents[1].name},
    {name: 'network-search', path: `/network?q=${encodeURIComponent(seeded.query)}`, status: 200, shows: 'Lighthouse Painter'},
    {name: 'clusters', path: '/clusters', status: 200, shows: seeded.cluster.name},
    {name: 'cluster', path: `/clusters/${seeded.cluster.id}`, status: 200, shows: seeded.cluster.postTitle},
    {name: 'resources', path: '/resources', status: 200, shows: 'Network resources'},
    {name: 'agent-unknown', path: '/agent/no-such-agent', status: 404, shows: 'no-such-agent'},
    {name: 'cluster-unknown', path: '/clusters/no-such-cluster', status: 404, shows: 'cluster'},
  ]
}

/** Records CSP violations from the first moment of the document (an init script runs through DevTools, outside the CSP). */
export async function watchCspViolations(page: Page) {
  // Page code as a string: the test project has no DOM types.
  await page.addInitScript(`(() => {
    const seen = []
    Object.defineProperty(window, '__cspViolations', {value: seen})
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') + ' at ' + event.sourceFile + ':' + event.lineNumber))
  })()`)
}

export const cspViolations = async (page: Page) => ((await page.evaluate('window.__cspViolations ?? []')) as string[])

/** `<script>` tags of the served HTML whose source is not one of the site's own files. */
export const foreignScripts = (text: string) => [...text.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]).filter((tag) => !/\ssrc="\/site\/[^"]+"/.test(tag))

