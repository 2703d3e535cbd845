import {describe, expect, it} from 'vitest'
import {DAEMON_HOST, daemonUrl, parseDaemonRuntime, servesRoot} from '../../src/protocol/daemon.js'

const runtime = {port: 5570, pid: 4242, started_at: '2026-01-05T10:00:00.000Z', version: '0.1.0', root: '/work/project'}

describe('daemon.json (DECISIONS: Daemon runtime)', () => {
  it('reads the runtime a daemon wrote, with or without its root', () => {
    expect(parseDaemonRuntime(JSON.stringify(runtime, null, 2) + '\n')).toEqual(runtime)
    const {root: _, ...older} = runtime
    expect(parseDaemonRuntime(JSON.stringify(older))).toEqual(older)
  })

  it('counts a missing, torn or hand-edited file as no runtime', () => {
    for (const text of [null, '', '{"port": 5570, "pid": 42', 'null', '[]', '"daemon"']) expect(parseDaemonRuntime(text), String(text)).toBeNull()
    for (const broken of [{port: '5570'}, {pid: 1.5}, {started_at: 0}, {version: null}, {root: 7}]) {
      expect(parseDaemonRuntime(JSON.stringify({...runtime, ...broken})), JSON.stringify(broken)).toBeNull()
    }
    for (const missing of ['port', 'pid', 'started_at', 'version']) {
      const {[missing as keyof typeof runtime]: _, ...rest} = runtime
      expect(parseDaemonRuntime(JSON.stringify(rest)), missing).toBeNull()
    }
  })

  it('a runtime serves the project it names, and any project when it names none (written before the root was recorded)', () => {
    expect(servesRoot(runtime, '/work/project')).toBe(true)
    expect(servesRoot(runtime, '/work/copy')).toBe(false)
    const {root: _, ...older} = runtime
    expect(servesRoot(older, '/work/copy')).toBe(true)
  })

  it('the daemon answers on loopback at its port', () => {
    expect(DAEMON_HOST).toBe('127.0.0.1')
    expect(daemonUrl(runtime)).toBe('http://127.0.0.1:5570')
  })
})
