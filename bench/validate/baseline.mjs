// The baseline of the validate benchmark: walk `.mesh/`, read every file, and
// parse the frontmatter of every markdown file with gray-matter. Imported by
// validate.mjs (in-process rounds) and run on its own as a process
// (`node bench/validate/baseline.mjs <repo>`) for the end-to-end rounds.
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import matter from 'gray-matter'

/** Reads and parses the repo at `root`; returns how many frontmatter blocks were parsed. */
export function readAndParse(root) {
  let parsed = 0
  const visit = (dir) => {
    for (const entry of readdirSync(dir, {withFileTypes: true})) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) visit(path)
      else {
        const text = readFileSync(path, 'utf8')
        // Options bypass gray-matter's content cache, so every round parses for real.
        if (entry.name.endsWith('.md')) parsed += matter(text, {}).data ? 1 : 0
      }
    }
  }
  visit(join(root, '.mesh'))
  readFileSync(join(root, 'mesh.json'), 'utf8')
  readFileSync(join(root, '.gitignore'), 'utf8')
  return parsed
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${readAndParse(process.argv[2])}\n`)
}
