/** Both servers' --help list the shared server flags and relay limits alike: same letters, defaults, env names and words. */
import {describe, expect, it} from 'vitest'
import {runCli} from '../../support/cli.js'

const SHARED = ['port', 'host', 'data', 'public-url', 'database-url', 'database-schema', 'nats', 'nats-prefix', 'proxy', 'log-level']
const RELAY_LIMITS = ['max-message-rate', 'max-members', 'max-creations-per-hour', 'max-sockets-per-minute', 'high-water-bytes', 'ping-interval']

/** flag name → its help text after the name (char, [default, env], description, options), whitespace collapsed. */
async function flagsOfHelp(service: string): Promise<Map<string, string>> {
  // No wrapping: one line per flag (plus an `<options: …>` line).
  const help = await runCli(['serve', service, '--help'], {env: {OCLIF_COLUMNS: '1000'}})
  expect(help.code).toBe(0)
  const section = help.stdout.slice(help.stdout.indexOf('FLAGS'), help.stdout.indexOf('GLOBAL FLAGS'))
  const flags = new Map<string, string>()
  let last = ''
  for (const line of section.split('\n').slice(1)) {
    const match = /^\s+(?:-(\w), )?--([\w-]+)(?:=<\w+>)?\s+(.*)$/.exec(line)
    if (match) {
      last = match[2]
      flags.set(last, `${match[1] ? `-${match[1]} ` : ''}${match[3].trim()}`)
    } else if (line.trim()) {
      flags.set(last, `${flags.get(last)} ${line.trim()}`)
    }
  }
  return flags
}

describe('mesh serve registry --help and mesh serve relay --help', () => {
  it('list the same shared flags and relay limits with the same defaults and env names', async () => {
    const [registry, relay] = await Promise.all([flagsOfHelp('registry'), flagsOfHelp('relay')])
    for (const name of [...SHARED, ...RELAY_LIMITS]) {
      expect(registry.get(name), name).toBeDefined()
      expect(registry.get(name), name).toBe(relay.get(name))
    }
    // The relay has nothing the registry lacks.
    expect([...relay.keys()].filter((name) => !registry.has(name))).toEqual([])
  })

  it('show the defaults an operator expects, each with its MESH_* env', async () => {
    const relay = await flagsOfHelp('relay')
    const brackets = Object.fromEntries(SHARED.map((name) => [name, /\[([^\]]*)\]/.exec(relay.get(name) ?? '')?.[1]]))
    expect(brackets).toEqual({
      port: 'default: 8080, env: MESH_PORT',
      host: 'default: 127.0.0.1, env: MESH_HOST',
      data: 'default: ./mesh-data, env: MESH_DATA',
      'public-url': 'env: MESH_PUBLIC_URL',
      'database-url': 'env: MESH_DATABASE_URL',
      'database-schema': 'default: public, env: MESH_DATABASE_SCHEMA',
      nats: 'env: MESH_NATS_URL',
      'nats-prefix': 'default: mesh, env: MESH_NATS_PREFIX',
      proxy: 'env: MESH_PROXY',
      'log-level': 'default: info, env: MESH_LOG_LEVEL',
    })
    expect(relay.get('port')).toMatch(/^-p /)
    expect(relay.get('data')).toMatch(/^-d /)
  })
})
