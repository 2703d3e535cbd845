// Benchmark: `mesh validate` against a plain loop that reads every file and
// parses its frontmatter with gray-matter, over the same generated repo:
// 10,000 tasks and 500 docs. Measured two ways, side by side in one run:
//   in-process  — validateProject() from dist/ against readAndParse(), warm;
//   end-to-end  — the built CLI (`node bin/run.js validate <repo> --json`) against
//                 `node bench/validate/baseline.mjs <repo>`, each a fresh process,
//                 so the CLI's own start-up (oclif, ajv schema compile) counts.
// Alternating rounds, median of each; the bar is mesh / baseline <= 2.0 for both.
//
//   npm run build && node bench/validate/validate.mjs [--tasks N] [--docs N] [--rounds N] [--e2e-rounds N]
//   KEEP=1 keeps the generated repo (its path is printed) for profiling.
import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {readAndParse} from './baseline.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const {validateProject} = await import(join(here, '..', '..', 'dist', 'standard', 'validate', 'index.js'))
const {DENY_LIST} = await import(join(here, '..', '..', 'dist', 'standard', 'constants.js'))

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`)
  return index === -1 ? fallback : Number(process.argv[index + 1])
}
const TASKS = arg('tasks', 10_000)
const DOCS = arg('docs', 500)
const ROUNDS = arg('rounds', 7)
const E2E_ROUNDS = arg('e2e-rounds', 5)
const BIN = join(here, '..', '..', 'bin', 'run.js')
const BASELINE_SCRIPT = join(here, 'baseline.mjs')
const BAR = 2.0

const CODE_MODULES = ['api', 'web', 'cli', 'core', 'store', 'sync', 'auth', 'jobs']
const CATEGORIES = ['architecture', 'product', 'conventions', 'deploy', 'security', 'ops', 'modules', 'governance']
const WORDS = 'agent cluster relay module task owner schema index budget token roster daemon commit branch review deploy'.split(' ')
const words = (seed, count) => Array.from({length: count}, (_, index) => WORDS[(seed * 7 + index * 13) % WORDS.length]).join(' ')

function write(root, path, text) {
  mkdirSync(dirname(join(root, path)), {recursive: true})
  writeFileSync(join(root, path), text)
}

/** A valid project: the v13 module tree, context files, TASKS tasks with dependency chains, DOCS docs. */
function generate() {
  const root = mkdtempSync(join(tmpdir(), 'mesh-bench-validate-'))
  write(root, 'mesh.json', JSON.stringify({mesh_version: 1, hub: {url: 'https://hub.example.com', docs: 'https://hub.example.com/docs'}}))
  write(root, '.gitignore', DENY_LIST.join('\n') + '\n')
  write(root, '.mesh/STANDARD_VERSION', '38\n')
  const modules = [
    '  - {id: project, kind: area}',
    ...['deploy', 'docs', 'design', 'general'].map((id) => `  - {id: ${id}, kind: area, parent: project}`),
    ...CODE_MODULES.map((id) => `  - {id: ${id}, kind: code, path: src/${id}}`),
  ]
  write(root, '.mesh/public/cluster.yaml', `version: 1\nid: bench\ntype: dev\nname: Bench\ntransport:\n  endpoint: wss://hub.example.com/c/bench\nmodules:\n${modules.join('\n')}\n`)
  for (const name of ['overview', 'product', 'stack', 'architecture', 'constraints']) {
    write(root, `.mesh/context/${name}.md`, `---\ntitle: ${name}\nupdated: 2026-01-05\n---\n\n${words(name.length, 120)}\n`)
  }
  for (let index = 0; index < TASKS; index++) {
    const module = CODE_MODULES[index % CODE_MODULES.length]
    const prefix = module.slice(0, 3).toUpperCase()
    const id = `${prefix}${index}`
    const previous = index >= CODE_MODULES.length ? `${prefix}${index - CODE_MODULES.length}` : undefined
    const archived = index % 10 === 0
    const folder = archived ? `log/2025-${String((index % 12) + 1).padStart(2, '0')}` : 'tasks'
    write(
      root,
      `.mesh/modules/${module}/${folder}/${id}-task-number-${index}.md`,
      `---\nid: ${id}\ntitle: Task number ${index} on ${module}\nstatus: ${archived ? 'done' : 'next'}\npriority: medium\nowner: architect\ncategory: ${module}\ncreated: 2026-01-05\nupdated: 2026-01-06\ntags: [bench, ${module}]\n${previous ? `depends_on:\n  - ${previous}\n` : ''}---\n\n## Scope\n\n${words(index, 40)} ${index}.\n\n## Done when\n\n- ${words(index + 1, 12)} ${index}.\n\n## Files\n\n- src/${module}/file-${index}.ts\n`,
    )
  }
  for (let index = 0; index < DOCS; index++) {
    const category = CATEGORIES[index % CATEGORIES.length]
    const body = Array.from({length: 30}, (_, line) => `Doc ${index} line ${line}: ${words(index + line, 10)}.`).join('\n')
    write(root, `.mesh/docs/${category}/doc-${index}.md`, `---\ntitle: Doc ${index}\ncategory: ${category}\nupdated: 2026-01-05\nowner: architect\nstatus: stable\n---\n\n# Doc ${index}\n\n${body}\n`)
  }
  // R6: a map; R2: at most 200 lines, so it links the first docs of each category.
  write(root, '.mesh/docs/INDEX.md', `# Docs\n\n${CATEGORIES.map((category, index) => `## ${category}\n\n- [Doc ${index}](${category}/doc-${index}.md)\n  One line about it.`).join('\n\n')}\n`)
  return root
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const time = async (fn) => {
  const start = performance.now()
  await fn()
  return performance.now() - start
}

const root = generate()
try {
  // In-process. Warm-up first: first-use costs (schema compile, JIT) are what the end-to-end rounds measure.
  readAndParse(root)
  const first = await validateProject(root)
  const baselineTimes = []
  const validateTimes = []
  for (let round = 0; round < ROUNDS; round++) {
    baselineTimes.push(await time(() => readAndParse(root)))
    validateTimes.push(await time(() => validateProject(root)))
  }
  // End-to-end: two fresh processes per round, the CLI exactly as CI runs it.
  const run = (args) => {
    const started = performance.now()
    const result = spawnSync(process.execPath, args, {stdio: ['ignore', 'ignore', 'pipe']})
    const elapsed = performance.now() - started
    if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`)
    return elapsed
  }
  run([BASELINE_SCRIPT, root])
  run([BIN, 'validate', root, '--json'])
  const baselineProcess = []
  const cliProcess = []
  for (let round = 0; round < E2E_ROUNDS; round++) {
    baselineProcess.push(run([BASELINE_SCRIPT, root]))
    cliProcess.push(run([BIN, 'validate', root, '--json']))
  }
  const list = (times) => `[${times.map((t) => t.toFixed(0)).join(', ')}]`
  const report = (label, base, mesh) => {
    const ratio = median(mesh) / median(base)
    console.log(`${label}`)
    console.log(`  baseline (read + gray-matter): median ${median(base).toFixed(1)} ms  ${list(base)}`)
    console.log(`  mesh validate:                 median ${median(mesh).toFixed(1)} ms  ${list(mesh)}`)
    console.log(`  ratio: ${ratio.toFixed(2)} (bar <= ${BAR.toFixed(1)}) ${ratio <= BAR ? 'PASS' : 'FAIL'}`)
    return ratio <= BAR
  }
  console.log(`repo: ${TASKS} tasks, ${DOCS} docs, ${first.summary.files} files; findings: ${first.summary.errors} errors, ${first.summary.warnings} warnings, ${first.summary.infos} infos`)
  const inProcess = report(`in-process, ${ROUNDS} rounds (validateProject vs readAndParse, warm)`, baselineTimes, validateTimes)
  const endToEnd = report(`end-to-end, ${E2E_ROUNDS} rounds (node bin/run.js validate --json vs node baseline.mjs, fresh processes)`, baselineProcess, cliProcess)
  if (first.summary.errors > 0) console.log('first findings:', first.findings.slice(0, 5))
  process.exitCode = inProcess && endToEnd ? 0 : 1
} finally {
  if (!process.env.KEEP) rmSync(root, {recursive: true, force: true}); else console.log(root)
}
