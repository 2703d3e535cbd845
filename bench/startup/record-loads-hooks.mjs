// Module hooks for record-loads.mjs: append each resolved URL to the log file.
import {appendFileSync} from 'node:fs'

let out

export async function initialize(data) {
  out = data.out
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context)
  if (out) appendFileSync(out, `${resolved.url}\n`)
  return resolved
}
