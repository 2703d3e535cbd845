// The V8 CPU profile the benchmark scripts can take of their own (the servers') thread.
import {writeFileSync} from 'node:fs'
import inspector from 'node:inspector'

/** Starts the profiler; resolves to a function that stops it, writes `file` and says `what` was profiled. */
export async function startCpuProfile(file, what) {
  const session = new inspector.Session()
  session.connect()
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))))
  await post('Profiler.enable')
  await post('Profiler.start')
  return async () => {
    const {profile} = await post('Profiler.stop')
    writeFileSync(file, JSON.stringify(profile))
    session.disconnect()
    console.log(`    CPU profile of ${what} written to ${file}`)
  }
}
