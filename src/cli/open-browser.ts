/**
 * Opening an address in the user's default browser (`mesh open`): the
 * platform's own opener — `open` on macOS, `xdg-open` elsewhere on Unix,
 * `rundll32 url.dll,FileProtocolHandler` on Windows (no shell, so nothing in
 * the address is parsed as a command). Written here rather than taken from
 * a package (`open` brings five more): mesh also needs to know when no
 * browser can be shown — a terminal over SSH, a Linux session without a
 * display — so it prints the address instead of waiting for nothing.
 */
import {spawn} from 'node:child_process'

/** How long an opener may run before it counts as having opened the page (xdg-open may wait for the browser). */
const OPENER_WAIT_MS = 3000

export interface Opener {
  command: string
  args: string[]
}

/** The opener for this platform and environment, or null when no browser can be shown here. */
export function browserOpener(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): Opener | null {
  if (platform === 'darwin') return env.SSH_CONNECTION || env.SSH_TTY ? null : {command: 'open', args: []}
  if (platform === 'win32') return {command: 'rundll32', args: ['url.dll,FileProtocolHandler']}
  // X11 or Wayland: without either there is no screen to show a browser on (a console, an SSH session).
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null
  return {command: 'xdg-open', args: []}
}

/**
 * Opens `url` with the opener; true when it started and did not fail within
 * a few seconds (xdg-open exits 0 once the browser has it, or keeps running
 * while the browser does), false when it is missing or exits non-zero
 * (xdg-open: 1 bad usage, 2 no such file, 3 no tool found, 4 the action failed).
 */
export function openInBrowser(url: string, opener: Opener): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false
    const settle = (opened: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      child.unref()
      resolve(opened)
    }
    const child = spawn(opener.command, [...opener.args, url], {stdio: 'ignore', detached: true})
    const timer = setTimeout(() => settle(true), OPENER_WAIT_MS)
    child.on('error', () => settle(false))
    child.on('exit', (code) => settle(code === 0))
  })
}
