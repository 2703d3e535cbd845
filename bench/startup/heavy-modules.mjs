// What "heavy" means for start-up: packages `mesh --version` and
// `mesh validate --help` must never load (COMMON.md: import them lazily).
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
/** The repository root (bench/startup/ is two levels down). */
export const ROOT = join(here, '..', '..')
export const HEAVY_PACKAGES = ['koa', 'ws', 'ink', 'better-sqlite3']

/** Packages (by node_modules folder name) that appear in a list of loaded URLs/paths. */
export function packagesIn(lines) {
  const found = new Set()
  for (const line of lines) {
    const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(decodeURIComponent(line))
    if (match) found.add(match[1].replace('\\', '/'))
  }
  return found
}

/** Runs `node bin/run.js ...args` with the load recorder: see recordLoads. */
export function heavyModulesLoadedBy(args) {
  return recordLoads([join(ROOT, 'bin', 'run.js'), ...args])
}

/**
 * Runs `node --import record-loads.mjs ...nodeArgs` and returns which of
 * HEAVY_PACKAGES it loaded, every package it loaded, and its exit status.
 */
export function recordLoads(nodeArgs) {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-loads-'))
  const log = join(dir, 'loads.txt')
  try {
    const result = spawnSync(process.execPath, ['--import', join(here, 'record-loads.mjs'), ...nodeArgs], {
      cwd: ROOT,
      env: {...process.env, MESH_LOAD_LOG: log},
      encoding: 'utf8',
    })
    let lines = []
    try {
      lines = readFileSync(log, 'utf8').split('\n').filter(Boolean)
    } catch {
      // nothing was recorded
    }
    const packages = packagesIn(lines)
    return {status: result.status, stdout: result.stdout, stderr: result.stderr, recorded: lines.length, packages: [...packages].sort(), heavy: HEAVY_PACKAGES.filter((name) => packages.has(name))}
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}
