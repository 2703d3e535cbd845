/**
 * `mesh team watch` on a real terminal: tmux runs the built binary in a
 * detached pane and the test reads the pane. Skipped where tmux is not
 * installed.
 */
import {execFileSync, spawnSync} from 'node:child_process'
import {readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {cliCommandLine} from '../../support/cli.js'
import {serveTeam, type ServedTeam} from '../../support/served-team.js'
import {marker} from '../../daemon/chat/script-team.js'

const hasTmux = spawnSync('tmux', ['-V']).status === 0
const SOCKET = `mesh-team-watch-test-${process.pid}`
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], {encoding: 'utf8'})
const pane = () => tmux('capture-pane', '-p', '-t', 'watch')
const WAIT = {timeout: 20_000, interval: 100}

describe.skipIf(!hasTmux)('mesh team watch on a terminal (tmux)', () => {
  let team: ServedTeam
  beforeAll(async () => {
    team = await serveTeam([
      {id: 'architect', title: 'Coordinating architect', replies: [], default: {say: `over to the developer\n${marker('delegate', {member: 'developer', brief: 'Build the login form'})}`}},
      {id: 'developer', title: 'Developer', replies: [], default: {say: 'compiling the form', hang: true}},
    ])
  })
  afterAll(async () => {
    spawnSync('tmux', ['-L', SOCKET, 'kill-server'])
    await team?.stop()
  })

  it('shows the team, the developer’s turn under the architect’s conversation and the open request; q quits', async () => {
    tmux('new-session', '-d', '-x', '140', '-y', '30', '-s', 'watch', '-c', team.repo.root, '-e', 'CI=false', `${cliCommandLine(['team', 'watch'])}; echo "EXIT CODE $?"; sleep 60`)
    await vi.waitFor(() => expect(pane()).toMatch(/○ architect\s+idle\s+Coordinating architect/), WAIT)
    expect(pane()).toContain('● live')
    expect(pane()).toContain('nothing running')

    const sent = await team.call('POST', '/chat/send', {member: 'architect', text: 'get the login built'})
    expect(sent.status).toBe(202)
    await vi.waitFor(() => expect(pane()).toContain('└ developer m-developer ▶ “compiling the form” · for architect'), WAIT)
    const shown = pane()
    expect(shown).toMatch(new RegExp(`architect ${sent.body.conv} ⋯ waiting on 1 request`))
    expect(shown).toMatch(/◐ architect\s+waiting/)
    expect(shown).toMatch(/● developer\s+working\s+Developer/)
    expect(shown).toMatch(/Open requests \(1\)\n dlg_[0-9a-f]+ {2}architect → developer: Build the login form/)
    expect(shown).not.toContain(team.token)

    tmux('send-keys', '-t', 'watch', 'q')
    await vi.waitFor(() => expect(pane()).toContain('EXIT CODE 0'), WAIT)
  })

  it('shows the queue of an idle conversation and follows hand edits, restores and deletions of queues and cards', async () => {
    // Two items queued for a conversation with no turn: they wait for its next idle, which does not come.
    for (const text of ['first thing', 'second thing']) expect((await team.call('POST', '/chat/conv/c-idle-tty/queue', {text, member: 'architect'})).status).toBe(201)
    tmux('new-session', '-d', '-x', '140', '-y', '30', '-s', 'files', '-c', team.repo.root, '-e', 'CI=false', `${cliCommandLine(['team', 'watch'])}; echo "EXIT CODE $?"; sleep 60`)
    const shown = () => tmux('capture-pane', '-p', '-t', 'files')
    await vi.waitFor(() => expect(shown()).toContain('architect c-idle-tty 2 queued, next “first thing”'), WAIT)

    const queueFile = join(team.repo.root, '.mesh/queues/c-idle-tty.json')
    const queue = JSON.parse(readFileSync(queueFile, 'utf8'))
    queue.items[0].text = 'edited by hand'
    writeFileSync(queueFile, JSON.stringify(queue, null, 2))
    await vi.waitFor(() => expect(shown()).toContain('architect c-idle-tty 2 queued, next “edited by hand”'), WAIT)

    const cardFile = join(team.repo.root, '.mesh/team/developer.md')
    writeFileSync(cardFile, readFileSync(cardFile, 'utf8').replace(/^title: .*$/m, 'title: Front-end developer'))
    await vi.waitFor(() => expect(shown()).toMatch(/developer\s+\S+\s+Front-end developer/), WAIT)

    rmSync(queueFile)
    await vi.waitFor(() => expect(shown()).not.toContain('c-idle-tty'), WAIT)
    // The second add kept the file of one item: the latest snapshot brings it back.
    const restored = await team.mesh(['daemon', 'restore', 'queues/c-idle-tty.json'])
    expect(restored.code, restored.stderr).toBe(0)
    await vi.waitFor(() => expect(shown()).toContain('architect c-idle-tty 1 queued, next “first thing”'), WAIT)

    tmux('send-keys', '-t', 'files', 'q')
    await vi.waitFor(() => expect(shown()).toContain('EXIT CODE 0'), WAIT)
  })
})
