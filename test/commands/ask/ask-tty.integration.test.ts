/**
 * `mesh ask` on a real terminal: tmux runs the built binary in a detached
 * pane and the test reads the pane. Skipped where tmux is not installed.
 */
import {execFileSync, spawnSync} from 'node:child_process'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {cliCommandLine} from '../../support/cli.js'
import {serveTeam, type ServedTeam} from '../../support/served-team.js'
import {marker} from '../../daemon/chat/script-team.js'

const hasTmux = spawnSync('tmux', ['-V']).status === 0
const SOCKET = `mesh-ask-test-${process.pid}`
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], {encoding: 'utf8'})
const pane = (name: string, escapes = false) => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', name)
const WAIT = {timeout: 20_000, interval: 100}

describe.skipIf(!hasTmux)('mesh ask on a terminal (tmux)', () => {
  let team: ServedTeam
  beforeAll(async () => {
    team = await serveTeam([
      {
        id: 'architect',
        replies: [
          {when: 'hold', say: 'streamed before the end', hang: true},
          {when: 'answered delegation', say: 'The footer is fixed.'},
          {when: 'Delegation refused', say: 'Noted: I cannot brief myself.'},
          {when: 'footer', say: `Asking the developer.\n${marker('delegate', {member: 'developer', brief: 'Fix the footer'})}\n${marker('delegate', {member: 'architect', brief: 'Myself'})}`},
        ],
        default: {say: `line one\n${marker('report', {status: 'done', summary: 'hidden'})}\nline two`},
      },
      {id: 'developer', replies: [], default: {say: `Fixing the footer now.\n${marker('report', {status: 'done', summary: 'footer fixed'})}`}},
    ])
  })
  afterAll(async () => {
    spawnSync('tmux', ['-L', SOCKET, 'kill-server'])
    await team?.stop()
  })

  const run = (name: string, args: string[]) =>
    tmux('new-session', '-d', '-x', '120', '-y', '20', '-s', name, '-c', team.repo.root, '-e', 'CI=false', '-e', 'NO_COLOR=', `${cliCommandLine(args)}; echo "EXIT CODE $?"; sleep 60`)

  it('streams the answer under a coloured header, hides markers and says how to continue', async () => {
    run('answer', ['ask', 'architect', 'hello'])
    await vi.waitFor(() => expect(pane('answer')).toContain('EXIT CODE 0'), WAIT)
    const shown = pane('answer')
    const conv = /architect › conversation (c-[0-9a-f]{12})/.exec(shown)?.[1]
    expect(conv).toBeDefined()
    expect(shown).toMatch(/line one\nline two\n/)
    expect(shown).not.toContain('mesh-report')
    expect(shown).toContain(`— continue with: mesh ask architect --conv ${conv} "…"`)
    expect(shown).not.toContain(team.token)
    expect(pane('answer', true)).toMatch(/\x1b\[[0-9;]*m.*architect/)
  })

  it('shows lines while the turn still runs; Ctrl-C cancels the turn (issue 19) and says so', async () => {
    run('held', ['ask', 'architect', 'hold on'])
    await vi.waitFor(() => expect(pane('held')).toContain('streamed before the end'), WAIT)
    expect(pane('held')).not.toContain('EXIT CODE')
    tmux('send-keys', '-t', 'held', 'C-c')
    await vi.waitFor(() => expect(pane('held')).toContain('EXIT CODE 1'), WAIT)
    const shown = pane('held').replace(/\s+/g, ' ')
    const turn = /architect's turn was cancelled \(conversation c-[0-9a-f]{12}, turn (t-[0-9a-f]{12})\)/.exec(shown)?.[1]
    expect(turn, shown).toBeDefined()
    expect(shown).toContain('Code: turn_cancelled')
    // The daemon recorded the cancel: the turn ended failed, reason cancelled.
    expect((await team.call('GET', `/chat/turns/${turn}`)).body).toMatchObject({status: 'failed', reason: 'cancelled'})
  })

  it('follows the delegated work nested under the turn that handed it on, refusals and answers, then sums it up', async () => {
    run('work', ['ask', 'architect', 'fix the footer'])
    await vi.waitFor(() => expect(pane('work')).toContain('EXIT CODE 0'), WAIT)
    const shown = pane('work')
    expect(shown).toMatch(/Asking the developer\.\n→ architect → developer: Fix the footer \(dlg_[0-9a-f]{12}\)\n/)
    expect(shown).toMatch(/  ↳ developer › m-developer · dlg_[0-9a-f]{12}\n  Fixing the footer now\.\n/)
    expect(shown).toMatch(/✗ delegation to architect refused: architect cannot delegate to its own session/)
    expect(shown).toMatch(/← developer answered architect: success/)
    expect(shown).toMatch(/architect › c-[0-9a-f]{12}\nThe footer is fixed\./)
    expect(shown).toMatch(/— \d turns · 1 delegation \(developer: success\)/)
    expect(shown).toContain('— continue with: mesh ask architect --conv')
    expect(shown).not.toContain('mesh-report')
  })
})
