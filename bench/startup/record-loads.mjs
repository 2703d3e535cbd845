// Preload for `node --import`: records every module the process loads into the
// file named by $MESH_LOAD_LOG (one URL or path a line), so a test or a bench
// can tell which packages a command pulled in. ESM imports are seen by a
// resolve hook (it runs on the hooks thread and appends synchronously, so
// nothing is lost when the CLI exits at once); CommonJS modules are read from
// require.cache when the process exits.
import {appendFileSync} from 'node:fs'
import {createRequire, register} from 'node:module'

const out = process.env.MESH_LOAD_LOG
if (out) {
  register('./record-loads-hooks.mjs', import.meta.url, {data: {out}})
  const require = createRequire(import.meta.url)
  process.on('exit', () => {
    const loaded = Object.keys(require.cache)
    if (loaded.length > 0) appendFileSync(out, `${loaded.join('\n')}\n`)
  })
}
