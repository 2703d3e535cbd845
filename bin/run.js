#!/usr/bin/env node
// Production entry point: runs the compiled commands from dist/ through oclif.
// `mesh --version` is answered before oclif loads (it costs ~120 ms of module
// loading), in oclif's own format, so scripts that probe for mesh stay fast;
// so are `mesh task list`, `mesh team list` and `mesh daemon status` when
// their flags are plain (dist/cli/quick-run.js; otherwise oclif runs them).
const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const {readFileSync} = await import('node:fs')
  const {version} = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`mesh/${version} ${process.platform}-${process.arch} node-${process.version}\n`)
} else if (!(await quick())) {
  // @oclif/core checks, as it is imported, that node satisfies its own `engines` (>=18, below ours) by
  // loading all of semver (~47 modules, 25 ms); npm already holds node to mesh's engines. The variable is
  // set for that import only, so no child process (a turn's client, git) inherits it.
  const skip = process.env.OCLIF_DISABLE_ENGINE_WARNING === undefined
  if (skip) process.env.OCLIF_DISABLE_ENGINE_WARNING = '1'
  const {execute} = await import('@oclif/core')
  if (skip) delete process.env.OCLIF_DISABLE_ENGINE_WARNING
  await execute({dir: import.meta.url})
}

/** Whether the quick path answered (never when dist/ is not built: oclif then says what is wrong). */
async function quick() {
  const {quickCommandId, runQuick} = await import('../dist/cli/quick-run.js').catch(() => ({}))
  return quickCommandId?.(argv) !== undefined && runQuick(argv, new URL('../oclif.manifest.json', import.meta.url))
}
