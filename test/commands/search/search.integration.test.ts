/** `mesh search` (the built binary) against the search part on a real port. */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {listen} from '../../../src/http/listen.js'
import {serveSearchFixture} from '../../registry/search/served.js'
import {runCli} from '../../support/cli.js'

const mesh = (args: string[], env: Record<string, string> = {}) => runCli(args, {env})

let server: Awaited<ReturnType<typeof serveSearchFixture>>
beforeAll(async () => {
  server = await serveSearchFixture()
})
afterAll(() => server.close())

describe('mesh search', () => {
  it('prints tab-separated lines on a pipe', async () => {
    const out = await mesh(['search', 'generate images', '--registry', server.url])
    expect(out.code).toBe(0)
    const lines = out.stdout.trim().split('\n')
    expect(lines.map((line) => line.split('\t')[0])).toEqual(['painter', 'sketcher'])
    expect(lines[0].split('\t')).toEqual(['painter', 'Painter', expect.any(String), 'true', '1/1', 'https://painter.example.com', 'https://painter.example.com/v1/draw'])
  })

  it('passes filters and prints the answer as JSON', async () => {
    const out = await mesh(['search', 'images', '--operational-only', '--limit', '5', '--json'], {MESH_REGISTRY: server.url})
    expect(out.code).toBe(0)
    const answer = JSON.parse(out.stdout)
    expect(answer.results.map((r: {agent_id: string}) => r.agent_id)).toEqual(['painter'])
    const produced = JSON.parse((await mesh(['search', 'images', '--produces', 'image/svg+xml', '--json', '--registry', server.url])).stdout)
    expect(produced.results.map((r: {agent_id: string}) => r.agent_id)).toEqual(['sketcher'])
  })

  it('refuses a bad limit or registry URL as a usage error', async () => {
    const limit = await mesh(['search', 'x', '--limit', '0', '--registry', server.url])
    expect(limit.code).toBe(2)
    const url = await mesh(['search', 'x', '--registry', 'ftp://nowhere'])
    expect(url.code).toBe(2)
    expect(url.stderr).toContain('--registry must be an http(s) URL')
  })

  it('fails with one clear line when the registry is down', async () => {
    const closed = await listen(() => {})
    await closed.close()
    const out = await mesh(['search', 'x', '--registry', closed.url])
    expect(out.code).toBe(1)
    expect(out.stderr).toContain(`Cannot reach the registry at ${closed.url}`)
    expect(out.stderr).not.toMatch(/\n\s+at /)
  })
})
