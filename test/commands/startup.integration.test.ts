import {describe, expect, it} from 'vitest'
import {HEAVY_PACKAGES, heavyModulesLoadedBy, recordLoads} from '../../bench/startup/heavy-modules.mjs'

// Behaviour, not timing: the fast paths must not pull in the server, UI or database stacks.
describe('start-up loads no heavy package', () => {
  it('the recorder does see heavy packages when they are loaded (control)', () => {
    const control = recordLoads(['--input-type=module', '-e', HEAVY_PACKAGES.map((name) => `await import(${JSON.stringify(name)});`).join('')])
    expect(control.status).toBe(0)
    expect(control.heavy).toEqual(HEAVY_PACKAGES)
  })

  it('mesh --version answers before oclif loads', () => {
    const loads = heavyModulesLoadedBy(['--version'])
    expect(loads.status, loads.stderr).toBe(0)
    expect(loads.packages).not.toContain('@oclif/core')
    expect(loads.heavy).toEqual([])
  })

  it.each([[['validate', '--help']], [['task', 'create', '--help']], [['init', '--help']]])('mesh %j', (args) => {
    const loads = heavyModulesLoadedBy(args)
    expect(loads.status, loads.stderr).toBe(0)
    expect(loads.recorded).toBeGreaterThan(10)
    expect(loads.packages).toContain('@oclif/core')
    expect(loads.heavy).toEqual([])
  })

  it('mesh mcp --print-config loads neither a heavy package nor the MCP SDK (issue 24: the SDK loads when the server runs)', () => {
    const loads = heavyModulesLoadedBy(['mcp', '--print-config', 'claude'])
    expect(loads.status, loads.stderr).toBe(0)
    expect(loads.heavy).toEqual([])
    expect(loads.packages).not.toContain('@modelcontextprotocol/sdk')
  })
})
