/**
 * Reaping the clients a killed daemon left (issue 19, Recovery): a recorded
 * client still running — the same process, told by its start — has its
 * whole group stopped, even when it ignores SIGTERM; a record whose pid now
 * belongs to another process (pid reuse) leaves that process alone; a turn
 * file without a record is still a lost turn. Every record and turn file is
 * gone afterwards.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {groupAlive, processStart} from '../../../../src/daemon/chat/processes/identity.js'
import {reapLostTurns} from '../../../../src/daemon/chat/processes/reap.js'

let root: string
const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // Gone already.
    }
  }
  rmSync(root, {recursive: true, force: true})
})

const context = () => ({meshPath: (...parts: string[]) => join(root, '.mesh', ...parts), debug: {log: () => {}}}) as any

/**
 * A client stand-in in a group of its own, ignoring SIGTERM, with a child of its own in the group that ignores it
 * too; MESH_TURN_ID in their env. Resolves once both have said they ignore SIGTERM.
 */
async function client(turnId: string): Promise<ChildProcess> {
  const grandchild = "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1e9)"
  const code = `process.on('SIGTERM', () => {}); require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], {stdio: ['ignore', 'inherit', 'ignore']}); console.log('ready'); setInterval(() => {}, 1e9)`
  const child = spawn(process.execPath, ['-e', code], {detached: true, stdio: ['ignore', 'pipe', 'ignore'], env: {...process.env, MESH_TURN_ID: turnId}})
  children.push(child)
  let out = ''
  await new Promise<void>((resolve) => child.stdout!.on('data', (chunk: Buffer) => ((out += chunk), out.split('ready').length > 2 && resolve())))
  return child
}

function record(turnId: string, pid: number, start: string | null) {
  mkdirSync(join(root, '.mesh', '.runtime', 'chat', 'procs'), {recursive: true})
  writeFileSync(join(root, '.mesh', '.runtime', 'chat', 'procs', `${turnId}.json`), JSON.stringify({version: 1, turn_id: turnId, conv: 'c-1', member: 'worker', profile: 'worker', pid, start, daemon_pid: 999999, started_at: '2026-03-01T10:00:00.000Z', request_ids: []}))
}

describe('reaping lost turns', () => {
  it('stops the whole group of a client still running (SIGKILL after the grace), and reports the turn lost', async () => {
    root = mkdtempSync(join(tmpdir(), 'mesh-reap-'))
    const child = await client('t-aaaaaaaaaaaa')
    record('t-aaaaaaaaaaaa', child.pid!, await processStart(child.pid!))
    const lost = await reapLostTurns(context(), 300)
    expect(lost).toEqual([expect.objectContaining({turn_id: 't-aaaaaaaaaaaa', conv: 'c-1', member: 'worker', detail: expect.stringMatching(/its client \(pid \d+\) went on alone and was stopped/)})])
    expect(await groupAlive(child.pid!)).toBe(false)
    expect(readdirSync(join(root, '.mesh', '.runtime', 'chat', 'procs'))).toEqual([])
  })

  it('leaves alone a process that got the recorded pid later (another start)', async () => {
    root = mkdtempSync(join(tmpdir(), 'mesh-reap-'))
    const stranger = await client('t-somebodyelse')
    record('t-bbbbbbbbbbbb', stranger.pid!, 'linux:another-boot:1')
    const lost = await reapLostTurns(context(), 300)
    expect(lost).toEqual([expect.objectContaining({turn_id: 't-bbbbbbbbbbbb', detail: expect.stringMatching(/had already ended/)})])
    expect(await groupAlive(stranger.pid!)).toBe(true)
  })

  it('finds and stops a client that was never recorded by its turn id, from the turn file it left', async () => {
    root = mkdtempSync(join(tmpdir(), 'mesh-reap-'))
    const child = await client('t-dddddddddddd')
    mkdirSync(join(root, '.mesh', '.runtime', 'chat', 'turns'), {recursive: true})
    writeFileSync(join(root, '.mesh', '.runtime', 'chat', 'turns', 't-dddddddddddd.json'), JSON.stringify({conv: 'c-2', member: 'dev', profile: 'dev', turn: 1, session: 's', text: 'x', request_ids: []}))
    const lost = await reapLostTurns(context(), 300)
    expect(lost).toEqual([expect.objectContaining({turn_id: 't-dddddddddddd', conv: 'c-2', detail: expect.stringMatching(/found by its turn id, was stopped/)})])
    expect(await groupAlive(child.pid!)).toBe(false)
  })

  it('reports a turn whose client was never recorded from its turn file', async () => {
    root = mkdtempSync(join(tmpdir(), 'mesh-reap-'))
    mkdirSync(join(root, '.mesh', '.runtime', 'chat', 'turns'), {recursive: true})
    writeFileSync(join(root, '.mesh', '.runtime', 'chat', 'turns', 't-cccccccccccc.json'), JSON.stringify({conv: 'm-dev', member: 'dev', profile: 'dev', turn: 1, session: 's', text: 'x', request_ids: ['dlg_0a1b2c3d4e5f']}))
    expect(await reapLostTurns(context(), 300)).toEqual([{turn_id: 't-cccccccccccc', conv: 'm-dev', member: 'dev', profile: 'dev', request_ids: ['dlg_0a1b2c3d4e5f'], started_at: null, detail: 'the daemon that ran this turn was killed before its client was recorded'}])
    expect(readdirSync(join(root, '.mesh', '.runtime', 'chat', 'turns'))).toEqual([])
  })
})
