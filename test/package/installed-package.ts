/**
 * The package as a user gets it: `npm pack` of the checkout (its dist/ as
 * `npm test` built it), then `npm install -g` of that tarball into a
 * temporary prefix, from a folder outside any project, so neither the
 * machine's global folder nor the checkout's node_modules is used.
 */
import {execFile} from 'node:child_process'
import {mkdtemp, readFile, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {delimiter, join} from 'node:path'
import {promisify} from 'node:util'
import {REPO_ROOT} from '../support/cli.js'

const run = promisify(execFile)

export interface InstalledPackage {
  /** What `npm pack` put in the tarball (paths inside the package). */
  files: string[]
  /** The package folder the install made (`<prefix>/lib/node_modules/mesh`). */
  root: string
  /** The `mesh` link the install put in `<prefix>/bin`. */
  program: string
  /** Environment for the installed mesh: its bin folder first on PATH, no folder of the checkout on it, a home of its own. */
  env: NodeJS.ProcessEnv
  /** A fresh temp folder, removed with the install. */
  tempDir(prefix: string): Promise<string>
  remove(): Promise<void>
}

/** The environment npm runs in, without what `npm test` set for the checkout (npm_* settings, node_modules/.bin on PATH). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')))
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '' && !dir.startsWith(REPO_ROOT))
    .join(delimiter)
  return env
}

/**
 * better-sqlite3's install script downloads a prebuilt binding from its
 * GitHub releases and compiles SQLite (about 4 minutes on 2 CPUs) when it
 * cannot; these machines reach only the npm registry. prebuild-install first
 * looks in the folder `npm_config_better_sqlite3_local_prebuilds` names, for
 * the file it would download: we put there the binding the checkout's own
 * install made for this same Node, packed the way the release is (a tar.gz
 * of build/Release/better_sqlite3.node). Should the names differ (another
 * better-sqlite3 version resolved), it compiles as before: slower, not wrong.
 */
async function localBetterSqlite3Prebuild(dir: string): Promise<void> {
  const moduleDir = join(REPO_ROOT, 'node_modules', 'better-sqlite3')
  const {version} = JSON.parse(await readFile(join(moduleDir, 'package.json'), 'utf8')) as {version: string}
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`
  await run('tar', ['-czf', join(dir, name), '-C', moduleDir, 'build/Release/better_sqlite3.node'])
}

/** Packs the checkout and installs the tarball globally under a temporary prefix. */
export async function installPackedPackage(): Promise<InstalledPackage> {
  const made: string[] = []
  const tempDir = async (prefix: string) => {
    const dir = await mkdtemp(join(tmpdir(), prefix))
    made.push(dir)
    return dir
  }
  const remove = async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, {recursive: true, force: true})))
  }
  try {
    const env = cleanEnv()
    const [packs, prefix, cwd, prebuilds, home] = await Promise.all(['mesh-pack-', 'mesh-prefix-', 'mesh-clean-', 'mesh-prebuilds-', 'mesh-home-'].map(tempDir))
    // --ignore-scripts: `prepare` would build again; `npm test` has built dist/.
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packs], {cwd: REPO_ROOT, env})
    const [{filename, files}] = JSON.parse(packed.stdout) as Array<{filename: string; files: Array<{path: string}>}>
    await localBetterSqlite3Prebuild(prebuilds)
    // --prefer-offline: dependencies come from the local npm cache when it has them.
    // --allow-scripts: npm 11.16+ asks which dependencies may run install scripts (npm 12 enforces it); better-sqlite3's installs its binding.
    await run('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--allow-scripts=better-sqlite3', join(packs, filename)], {
      cwd,
      env: {...env, npm_config_better_sqlite3_local_prebuilds: prebuilds},
      maxBuffer: 16 * 1024 * 1024,
    })
    return {
      files: files.map((file) => file.path),
      root: join(prefix, 'lib', 'node_modules', 'mesh'),
      program: join(prefix, 'bin', 'mesh'),
      env: {PATH: [join(prefix, 'bin'), env.PATH].join(delimiter), HOME: home},
      tempDir,
      remove,
    }
  } catch (error) {
    await remove()
    throw error
  }
}
