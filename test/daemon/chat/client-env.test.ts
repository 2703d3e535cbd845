import {describe, expect, it} from 'vitest'
import {clientEnv} from '../../../src/daemon/chat/client-env.js'

describe('a client’s environment', () => {
  it('drops CLAUDECODE (claude refuses to start nested) and every MESH_ variable of the daemon, and sets the turn’s own', () => {
    const env = clientEnv({PATH: '/bin', HOME: '/h', CLAUDECODE: '1', MESH_DAEMON_DETACHED: '1', MESH_API_KEY: 'k', MESH_MAX_TURNS: '2', ANTHROPIC_API_KEY: 'a'}, {MESH_TURN_FILE: '/t.json', MESH_CONV: 'c-1'})
    expect(env).toEqual({PATH: '/bin', HOME: '/h', ANTHROPIC_API_KEY: 'a', MESH_TURN_FILE: '/t.json', MESH_CONV: 'c-1'})
  })
})
