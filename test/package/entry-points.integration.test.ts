import {execFile} from 'node:child_process'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {describe, expect, it} from 'vitest'

// The package's entry points as a user imports them (`mesh/client`, `mesh/registry`), from the built dist/
// through the package's own name, each in a fresh node process. Build first (`npm test` does).
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

// A resolve hook records every module the import pulls in (ESM and the CJS packages it imports);
// require.cache adds what those CJS packages require in turn. `probe:loaded` answers with the list.
const HOOKS = `
const seen = []
export async function resolve(specifier, context, next) {
  if (specifier === 'probe:loaded') return {url: 'data:text/javascript,export default ' + encodeURIComponent(JSON.stringify(seen)), shortCircuit: true}
  const resolved = await next(specifier, context)
  seen.push(resolved.url)
  return resolved
}`
const PROBE = `
import {register, createRequire} from 'node:module'
import {fileURLToPath} from 'node:url'
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}))
const entry = await import(process.env.PROBE_ENTRY)
const {default: seen} = await import('probe:loaded')
const files = [...seen.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url)), ...Object.keys(createRequire(import.meta.url).cache)]
console.log(JSON.stringify({exports: Object.keys(entry).sort(), files: [...new Set(files)]}))
`

async function load(entry: string): Promise<{exports: string[]; files: string[]; packages: string[]}> {
  // --eval resolves `mesh/...` from the working directory: the package's own name (self-reference through "exports").
  const {stdout} = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', PROBE], {cwd: ROOT, env: {...process.env, PROBE_ENTRY: entry}})
  const {exports, files} = JSON.parse(stdout) as {exports: string[]; files: string[]}
  const packages = [...new Set(files.flatMap((file) => [...file.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].map((match) => match[1])))]
  return {exports, files: files.map((file) => file.replace(ROOT, '')), packages}
}

const SERVER_PACKAGES = ['better-sqlite3', 'pg', 'koa', '@koa/router', 'koa-compose']

describe('package entry points', () => {
  it('mesh/client exports the client API and loads no server package', async () => {
    const {exports, files, packages} = await load('mesh/client')
    for (const name of ['createRegistryClient', 'searchRegistry', 'createInboxClient', 'watchAgentSocket', 'createClusterClient', 'createBoardsClient', 'MeshError']) {
      expect(exports).toContain(name)
    }
    expect(packages.filter((name) => SERVER_PACKAGES.includes(name))).toEqual([])
    expect(packages).not.toContain('ws') // loaded when a socket first connects
    // Server code the client layer may not load.
    expect(files.filter((file) => /^dist\/(registry|cluster|store|http|bus|standard|daemon|agent)\//.test(file))).toEqual([])
  })

  it('mesh/agent exports the kit, the payment gate, the caller, card lint and the heartbeat loop, and loads no other service', async () => {
    const {exports, files} = await load('mesh/agent')
    for (const name of ['createAgent', 'createPayments', 'callAgent', 'resolveAgentUrl', 'lintCard', 'loadAgentFolder', 'discoveryCardOf', 'runHeartbeat', 'loadCardFile', 'a2aCardFromPublicCard']) {
      expect(exports).toContain(name)
    }
    expect(files.filter((file) => /^dist\/(registry|cluster|daemon|standard)\//.test(file))).toEqual([])
  })

  it('mesh/registry is the server factory: it loads Koa and both database drivers (the probe sees them)', async () => {
    const {exports, packages} = await load('mesh/registry')
    expect(exports).toContain('buildRegistryServer')
    expect(exports).not.toContain('runHeartbeat')
    for (const name of ['better-sqlite3', 'pg', 'koa', '@koa/router']) expect(packages).toContain(name)
  })
})
