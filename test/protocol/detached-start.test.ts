import {describe, expect, it} from 'vitest'
import {startFailedLine, startFailureOf} from '../../src/protocol/detached-start.js'

describe('the detached start failure line', () => {
  it('is found last in the output, whatever surrounds it, and read back whole', () => {
    const message = 'No free port for the daemon: port 5599 are all taken on 127.0.0.1; free one or set architect.port in .mesh/public/cluster.yaml'
    const output = ['mesh daemon serving /p', startFailedLine({code: 'old', message: 'an older run'}).trim(), '{"event":"listening"}', startFailedLine({code: 'daemon_no_port', message}).trim(), ' ›   Error: No free port for the daemon: port 5599 are all taken on 127.0.0.1;', ' ›   Code: daemon_no_port', ''].join('\n')
    expect(startFailureOf(output)).toEqual({code: 'daemon_no_port', message})
  })

  it('is null when the daemon printed none (a crash, a signal) or a line that only looks like it', () => {
    expect(startFailureOf('')).toBeNull()
    expect(startFailureOf('Segmentation fault\n')).toBeNull()
    expect(startFailureOf('{"event":"start_failed","error":{"code":7}}\n{not json\n')).toBeNull()
  })
})
