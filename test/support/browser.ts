/**
 * Headless Chromium for tests that need a real browser (CORS, pages): Debian's
 * `chromium` at /usr/bin/chromium (.ci/run installs it when missing) driven by
 * playwright-core, which ships no browser of its own. Each launch gets a fresh
 * profile in a temp folder, removed on close, so no test sees another's
 * cookies, cache or service workers.
 */
import {existsSync} from 'node:fs'
import {mkdir, mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {chromium, type BrowserContext, type Page} from 'playwright-core'

/** Debian's package puts its launcher here. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/**
 * Git-ignored folder (see .gitignore) for screenshots and other things a
 * person looks at after a run.
 */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../test-artifacts/', import.meta.url))

/**
 * Flags for a quiet, deterministic headless run inside a container: no
 * sandbox (containers run as root without user namespaces), no GPU, no QUIC,
 * and none of the background fetches (component updates, sync, field trials)
 * that would make the browser talk to anything but the test's servers.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * An init script that records CSP violations from the document's first moment (an init script runs
 * outside the page's CSP) in `window.__cspViolations`. Page code as a string: no DOM types here.
 */
export const WATCH_CSP = `(() => {
  const seen = []
  Object.defineProperty(window, '__cspViolations', {value: seen})
  document.addEventListener('securitypolicyviolation', (event) => seen.push(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline')))
})()`

export interface TestBrowser {
  context: BrowserContext
  /** Every console line and uncaught page error so far, as `<type>: <text>`, for failure messages. */
  console: string[]
  /** A new tab in the browser's one context. */
  newPage(): Promise<Page>
  /** Saves a PNG of the full page (or, with `fullPage: false`, of the viewport) as test-artifacts/<name>.png and returns its path. */
  screenshot(page: Page, name: string, options?: {fullPage?: boolean}): Promise<string>
  /** Closes the browser and removes its profile. */
  close(): Promise<void>
}

export interface LaunchOptions {
  /** Viewport size; default 1000×700. */
  viewport?: {width: number; height: number}
}

/** Launches headless Chromium with a fresh profile. Throws a clear error when Chromium is not installed. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: install Debian's chromium (apt-get install --no-install-recommends chromium, as .ci/run does)`)
  }
  // A persistent context is the one playwright launch that takes our own profile folder.
  const userDataDir = await mkdtemp(join(tmpdir(), 'mesh-chromium-'))
  let context: BrowserContext
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: options.viewport ?? {width: 1000, height: 700},
    })
  } catch (error) {
    await rm(userDataDir, {recursive: true, force: true})
    throw error
  }
  const lines: string[] = []
  const watch = (page: Page) => {
    page.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`))
    page.on('pageerror', (error) => lines.push(`pageerror: ${error.message}`))
  }
  context.pages().forEach(watch)
  context.on('page', watch)
  let closed: Promise<void> | undefined
  return {
    context,
    console: lines,
    newPage: () => context.newPage(),
    async screenshot(page, name, options = {}) {
      await mkdir(ARTIFACTS_DIR, {recursive: true})
      const path = join(ARTIFACTS_DIR, `${name}.png`)
      await page.screenshot({path, fullPage: options.fullPage ?? true})
      return path
    },
    close() {
      closed ??= (async () => {
        try {
          await context.close()
        } finally {
          await rm(userDataDir, {recursive: true, force: true})
        }
      })()
      return closed
    },
  }
}
