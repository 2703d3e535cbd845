// Preload for `node --import`: appends this process's CPU time (user + system,
// in microseconds) to the file named by $MESH_CPU_LOG when it exits. CPU time
// barely moves when other processes load the machine, unlike wall time.
import {appendFileSync} from 'node:fs'

const out = process.env.MESH_CPU_LOG
if (out) {
  process.on('exit', () => {
    const {user, system} = process.cpuUsage()
    appendFileSync(out, `${user + system}\n`)
  })
}
