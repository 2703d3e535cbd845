/**
 * The agent page in a real Chromium against a whole `mesh serve registry`
 * that probes a real agent on 127.0.0.1: what a person sees (name, state,
 * qualities, skills, commands), a copy button, the copied curl command run
 * for real, an accessibility scan, and the state dimming without a reload
 * after the offline sweep. Screenshots: test-artifacts/site-agent.png,
 * site-agent-dark.png.
 */
import {execFile} from 'node:child_process'
import {existsSync} from 'node:fs'
import {promisify} from 'node:util'
import type {Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {scanAccessibility} from '../../support/axe.js'
import {launchBrowser, type TestBrowser} from '../../support/browser.js'
import {startSiteServer, type SiteServer} from '../../support/site-server.js'
import {startTestAgent, type TestAgent} from '../../support/test-agent.js'

let site: SiteServer
let agent: TestAgent
let browser: TestBrowser
let hostileAgent: TestAgent
let echoKey: string

/** Waits until the registry's prober (first pass 5 s after start) has cached the agent's PublicCard. */
async function waitForProbe(agentId: string, deadlineMs = 30_000) {
  const until = Date.now() + deadlineMs
  while (Date.now() < until) {
    const record = (await (await fetch(`${site.url}/v1/agents/${agentId}`)).json()) as {card_fetched_at: string | null; operational: boolean | null}
    if (record.card_fetched_at && record.operational !== null) return record
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const last = await (await fetch(`${site.url}/v1/agents/${agentId}`)).text()
  throw new Error(`the prober did not fetch ${agentId}'s PublicCard within ${deadlineMs} ms: ${last.slice(-900)}`)
}

beforeAll(async () => {
  site = await startSiteServer({allowPrivateEndpoints: true})
  agent = await startTestAgent({
    name: 'Echo Agent',
    skills: [
      {
        id: 'echo',
        name: 'Echo text',
        description: 'Answers with the text it was sent. Free; about 5 ms.',
        examples: ['Echo "hello" back to me', '{"text": "hello"}'],
        inputSchema: {type: 'object', required: ['text'], properties: {text: {type: 'string', maxLength: 1000}}},
        returns: ['ok'],
        reply: (body) => (body && typeof body === 'object' && 'text' in body ? {status: 200, body: {ok: true, echo: (body as {text: unknown}).text}} : {status: 400, body: {error: {code: 'invalid_body', message: 'text is required'}}}),
      },
      {id: 'shout', name: 'Shout', description: 'The text in capitals. Free.', examples: ['Shout hello', '{"text": "hi"}']},
      {
        id: 'translate',
        name: 'Translate',
        description: 'Translates up to 5000 characters into one of 40 languages; about 1 s. 0.0015 SOL a call after 5 free calls a day.',
        examples: ['Say "good morning" in French', '{"text": "good morning", "to": "fr"}'],
        pricing: {unit: 'request', amount: 1_500_000, currency: 'lamports', network: 'solana-devnet', free_per_day: 5},
      },
    ],
  })
  hostileAgent = await startTestAgent({
    skills: [{id: 'run'}],
    card: (url) => ({
      name: 'Evil <script>alert(1)</script>',
      url,
      version: '1',
      description: `\u202Egnp.exe <img src=x onerror=alert(2)> ${'long words '.repeat(360)}`,
      defaultInputModes: ['application/json'],
      defaultOutputModes: ['application/json'],
      protocols: ['http'],
      pricing: {unit: 'request', amount: 0, currency: 'free'},
      availability: {now: true},
      documentationUrl: 'https://docs.example/guide?a=1&b=2',
      skills: [
        {
          id: 'run',
          name: '<svg onload=alert(3)>',
          description: `\u2066</code></pre><script>alert(4)</script> ${'y'.repeat(3900)}`,
          examples: ["Run $(touch /tmp/pwned) `id`", `{"cmd": "'; touch /tmp/pwned-${process.pid}; echo '", "n": "\u202E"}`],
        },
      ],
    }),
  })
  const {api_key, token} = await site.register('echo-agent', {endpoint: agent.url})
  echoKey = api_key
  // A token call is the heartbeat that brings the agent online (and makes the prober look at it).
  const heartbeat = await fetch(`${site.url}/v1/agents/token`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({agent_id: 'echo-agent', api_key})})
  expect(heartbeat.status).toBe(200)
  await site.pushCard(token, {name: 'Echo Agent', brand: 'Acme', description: 'Echoes what you send, for testing callers.', category: 'dev.echo', tags: ['echo', 'testing']})
  const hostile = await site.register('evil-agent', {endpoint: hostileAgent.url})
  await fetch(`${site.url}/v1/agents/token`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({agent_id: 'evil-agent', api_key: hostile.api_key})})
  await site.pushCard(hostile.token, {name: '<script>alert(5)</script>\u202Eevil', description: `<a href="javascript:alert(6)">x</a> ${'z'.repeat(400)}`, category: 'a.b', tags: ['<b>t</b>']})
  await waitForProbe('echo-agent')
  await waitForProbe('evil-agent')
  browser = await launchBrowser({viewport: {width: 1100, height: 900}})
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {origin: site.url})
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await site?.close()
  await agent?.close()
  await hostileAgent?.close()
})

async function openAgent(scheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await browser.newPage()
  await page.emulateMedia({colorScheme: scheme})
  await page.goto(`${site.url}/agent/echo-agent`)
  return page
}

describe('the agent page in a browser', () => {
  it('shows the agent, its state and qualities, every skill and its commands; a copy button copies the command, which works', async () => {
    const page = await openAgent()
    expect(await page.title()).toBe('Echo Agent · mesh')
    expect(await page.locator('h1').textContent()).toBe('Echo Agent')
    expect(await page.locator('.agent-kicker').textContent()).toContain('Acme')
    expect(await page.locator('[data-agent-state] .state').getAttribute('class')).toBe('state online')
    const badges = await page.locator('.agent-badges').textContent()
    expect(badges).toContain('operational')
    expect(badges).toContain('card match 1/1')
    expect(badges).toContain('live')
    expect(await page.locator('dl.qualities').textContent()).toContain("Every skill on its card answered the registry's last probe")
    expect(await page.locator('.skill h3').allTextContents()).toEqual(['Echo text', 'Shout', 'Translate'])
    const translate = page.locator('.skill').nth(2)
    expect(await translate.locator('.skill-badges').textContent()).toContain('1500000 lamports (0.0015 SOL) per request on solana-devnet')
    expect(await translate.textContent()).toContain('5 free calls per caller per day, then paid')
    const echo = page.locator('.skill').first()
    expect(await echo.locator('.skill-desc').textContent()).toBe('Answers with the text it was sent. Free; about 5 ms.')
    expect(await echo.locator('.skill-url code').textContent()).toBe(`${agent.url}/v1/echo`)
    await echo.locator('details.schema summary').click()
    expect(await echo.locator('details.schema pre').textContent()).toContain('"maxLength": 1000')
    const commands = await echo.locator('pre.cmd code').allTextContents()
    expect(commands).toEqual([
      `curl -sS -X POST ${agent.url}/v1/echo -H 'Content-Type: application/json' --data '{"text":"hello"}'`,
      `mesh call ${agent.url} echo --data '{"text":"hello"}'`,
    ])

    // The script added one copy button per command; clicking copies the text.
    expect(await page.locator('.command button.copy').count()).toBe(6)
    const copy = echo.locator('.command').first().locator('button.copy')
    expect(await copy.textContent()).toBe('Copy the curl command')
    expect(await copy.locator('.visually-hidden').textContent()).toBe(' the curl command')
    await copy.click()
    await page.waitForSelector('.command button.copy[data-copied="true"]')
    const copied = String(await page.evaluate('navigator.clipboard.readText()'))
    expect(copied).toBe(commands[0])
    // The copied command is correct shell and reaches the skill.
    const noProxy = {...process.env, NO_PROXY: '*', no_proxy: '*'}
    // Asynchronously: the agent answers from this same process.
    const run = await promisify(execFile)('/bin/sh', ['-c', copied], {encoding: 'utf8', timeout: 10_000, env: noProxy})
    expect(JSON.parse(run.stdout)).toEqual({ok: true, echo: 'hello'})

    const report = await scanAccessibility(page, {label: '/agent/echo-agent'})
    expect(report.violations, report.summary).toEqual([])
    expect(browser.console.filter((line) => line.startsWith('pageerror'))).toEqual([])
    await browser.screenshot(page, 'site-agent')
    const dark = await openAgent('dark')
    expect((await scanAccessibility(dark, {label: '/agent/echo-agent (dark)'})).violations).toEqual([])
    await browser.screenshot(dark, 'site-agent-dark')
    await dark.close()
    await page.close()
  })

  it('a hostile card renders inert: nothing runs, nothing breaks out of its element', async () => {
    const page = await browser.newPage()
    const dialogs: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    const response = await page.goto(`${site.url}/agent/evil-agent`)
    expect(response?.status()).toBe(200)
    expect(Buffer.byteLength(await response!.text())).toBeLessThan(200 * 1024)
    expect(await page.locator('h1').textContent()).toBe('<script>alert(5)</script>evil')
    expect(await page.locator('.skill h3').allTextContents()).toEqual(['<svg onload=alert(3)>'])
    expect(await page.locator('script:not([src])').count()).toBe(0)
    expect(await page.locator('img, svg, a[href^="javascript"]').count()).toBe(0)
    const command = (await page.locator('.skill pre.cmd code').first().textContent()) ?? ''
    expect(command).toContain(`'{"cmd":"'\\''; touch /tmp/pwned-${process.pid}; echo '\\''","n":"\\u202e"}'`)
    // Run for real, the command sends the hostile text as data: nothing it carries runs.
    const run = await promisify(execFile)('/bin/sh', ['-c', command], {encoding: 'utf8', timeout: 10_000, env: {...process.env, NO_PROXY: '*', no_proxy: '*'}})
    expect(JSON.parse(run.stdout)).toEqual({ok: true})
    expect(existsSync(`/tmp/pwned-${process.pid}`)).toBe(false)
    expect(JSON.parse(hostileAgent.requestsTo('/v1/run').at(-1)!.body).cmd).toBe(`'; touch /tmp/pwned-${process.pid}; echo '`)
    expect(await page.evaluate('document.body.innerText.includes("\\u202E") || document.body.innerText.includes("\\u2066")')).toBe(false)
    expect(dialogs).toEqual([])
    await browser.screenshot(page, 'site-agent-hostile')
    await page.close()
  })

  it('without JavaScript the commands are plain selectable text and there is no dead button', async () => {
    const context = await browser.context.browser()?.newContext({javaScriptEnabled: false})
    // A persistent context has no browser handle: open a page with scripts blocked by route instead.
    const page = context ? await context.newPage() : await browser.newPage()
    if (!context) await page.route('**/*.js', (route) => route.abort())
    await page.goto(`${site.url}/agent/echo-agent`)
    expect(await page.locator('pre.cmd code').first().textContent()).toContain('curl -sS -X POST')
    expect(await page.locator('button.copy').count()).toBe(0)
    await page.close()
    await context?.close()
  })

  it('dims without a reload when the agent goes offline (the offline sweep, through the site\'s shared stream), and pulses again when it is back', async () => {
    const page = await browser.newPage()
    await page.goto(`${site.url}/agent/echo-agent`)
    // Let the shared event stream (live.js) open before the sweep publishes.
    await page.waitForSelector('html[data-stream="open"]')
    expect(await page.locator('.agent-page').getAttribute('class')).toContain('is-online')
    site.advance(5 * 60_000 + 1)
    expect(await site.server.registry.sweep()).toContain('echo-agent')
    await page.waitForSelector('[data-agent-state] .state.offline', {timeout: 10_000})
    // "last seen" is measured from the registry's clock at render (data-now-ms) moved on by the
    // browser's; the test's registry clock jumped 5 minutes at once, so the words are not asserted.
    expect(await page.locator('[data-agent-state]').textContent()).toMatch(/^offline · last seen \S/)
    expect(await page.locator('[data-agent-state] time').getAttribute('datetime')).toBe(new Date(site.now() - 5 * 60_000 - 1).toISOString())
    expect(await page.locator('.agent-page').getAttribute('class')).toContain('is-offline')
    await browser.screenshot(page, 'site-agent-offline')
    // A heartbeat brings it back: the pulse returns, still without a reload.
    const back = await fetch(`${site.url}/v1/agents/token`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({agent_id: 'echo-agent', api_key: echoKey})})
    expect(back.status).toBe(200)
    await page.waitForSelector('[data-agent-state] .state.online', {timeout: 10_000})
    expect(await page.locator('.agent-page').getAttribute('class')).toContain('is-online')
    await page.close()
  })
})
