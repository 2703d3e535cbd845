/**
 * Drives `mesh cluster join` on a real terminal: tmux runs the built binary
 * in a detached pane, the test types with send-keys and reads the pane.
 * Skipped where tmux is not installed.
 */
import {execFileSync, spawnSync} from 'node:child_process'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'
import {ClusterClient} from '../../../src/client/cluster/client.js'
import type {MessageFrame} from '../../../src/client/cluster/frames.js'
import type {HostedServer} from '../../../src/http/index.js'
import {cliCommandLine, REPO_ROOT} from '../../support/cli.js'
import {startRelay} from './harness.js'

const hasTmux = spawnSync('tmux', ['-V']).status === 0
const SOCKET = `mesh-room-test-${process.pid}`
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], {encoding: 'utf8'})
const pane = () => tmux('capture-pane', '-p', '-t', 'room')
const WAIT = {timeout: 20_000, interval: 100}

describe.skipIf(!hasTmux)('mesh cluster join on a terminal (tmux)', () => {
  let relay: HostedServer
  beforeAll(async () => {
    relay = await startRelay()
  })
  afterAll(async () => {
    spawnSync('tmux', ['-L', SOCKET, 'kill-server'])
    await relay.stop()
  })

  it('shows the room, sends broadcast and /msg lines, and leaves when the cluster is deleted', async () => {
    const client = new ClusterClient({relay: relay.url})
    const {cluster_id, token, admin_token} = await client.create({name: 'tty'})
    const command = `${cliCommandLine(['cluster', 'join', cluster_id, '--token', token, '--agent', 'ada'])}; echo "EXIT CODE $?"; sleep 60`
    tmux('new-session', '-d', '-x', '110', '-y', '24', '-s', 'room', '-c', REPO_ROOT, '-e', `MESH_RELAY=${relay.url}`, '-e', 'CI=false', command)

    await vi.waitFor(() => expect(pane()).toContain('connected · 1 online'), WAIT)
    expect(pane()).toContain('● ada (you)')

    const peer = client.connection(cluster_id, {agent: 'peer', token})
    await peer.connect()
    await vi.waitFor(() => expect(pane()).toContain('● peer'), WAIT)
    peer.broadcast({text: 'welcome, ada'})
    await vi.waitFor(() => expect(pane()).toMatch(/\d\d:\d\d:\d\d peer welcome, ada/), WAIT)

    const heard: MessageFrame[] = []
    peer.on('message', (frame) => heard.push(frame))
    tmux('send-keys', '-t', 'room', 'hello room', 'Enter')
    tmux('send-keys', '-t', 'room', '/msg peer just for you', 'Enter')
    await vi.waitFor(() => expect(heard.map((frame) => [frame.to, frame.payload])).toEqual([[null, 'hello room'], ['peer', 'just for you']]), WAIT)
    await vi.waitFor(() => expect(pane()).toContain('you → peer [direct] just for you ✓1'), WAIT)
    expect(pane()).toContain('you hello room ✓1')

    await client.delete(cluster_id, admin_token)
    await vi.waitFor(() => expect(pane()).toContain('EXIT CODE 0'), WAIT)
    expect(pane()).toContain(`Cluster ${cluster_id} was deleted; leaving.`)
    peer.close()
  })

  it('shows a refused join in the view and exits 1', async () => {
    const client = new ClusterClient({relay: relay.url})
    const {cluster_id} = await client.create({name: 'locked'})
    const command = `${cliCommandLine(['cluster', 'join', cluster_id, '--token', 'ck_wrong', '--agent', 'eve'])}; echo "EXIT CODE $?"; sleep 60`
    tmux('new-session', '-d', '-x', '110', '-y', '24', '-s', 'locked', '-c', REPO_ROOT, '-e', `MESH_RELAY=${relay.url}`, '-e', 'CI=false', command)
    const lockedPane = () => tmux('capture-pane', '-p', '-t', 'locked')
    await vi.waitFor(() => expect(lockedPane()).toContain('EXIT CODE 1'), WAIT)
    expect(lockedPane()).toMatch(/failed: The relay refused to let you in \(401\)/)
  })
})
