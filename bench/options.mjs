// The one command-line reader the benchmark scripts share.

/** `--name value` of this process's arguments, or `fallback`. */
export const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : fallback
}
