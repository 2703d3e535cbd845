/**
 * The run-time half of the layer check (docs/architecture.md, Checked rules):
 * the same cruise without the imports TypeScript erases (`import type`,
 * imports used only as types), so every edge here is one Node really loads.
 * Run by `npm run lint:layers` after .dependency-cruiser.cjs.
 */
const {options} = require('./.dependency-cruiser.cjs')

const CLIENT = '^src/client/'
const SERVER_CODE = [
  '^src/(standard|registry|cluster|daemon|agent|store)/',
  '(^|/)node_modules/(koa|@koa/router|koa-compose|better-sqlite3|pg|pg-[^/]+)/',
]

/** Violations known today, skipped (and counted as ignored) until their import is gone. */
const KNOWN_VIOLATIONS = []

module.exports = {
  forbidden: [
    {
      name: 'client-loads-no-server-code',
      comment: 'Loading a client-layer file loads no service, store, Koa or database driver, however indirectly (mesh/client runs without them).',
      severity: 'error',
      from: {path: CLIENT},
      to: {path: SERVER_CODE, reachable: true},
    },
    {
      name: 'no-circular',
      comment: 'No import cycles among the modules Node loads: in a cycle, load order decides which side sees undefined.',
      severity: 'error',
      from: {path: '^(src|bin)/'},
      to: {circular: true},
    },
    {
      name: 'no-dev-package-at-run-time',
      comment: 'Shipped code loads no devDependency: users do not have them installed.',
      severity: 'error',
      from: {path: '^(src|bin)/'},
      to: {dependencyTypes: ['npm-dev']},
    },
  ],
  options: {...options, tsPreCompilationDeps: false, knownViolations: process.env.LAYERS_STRICT ? [] : KNOWN_VIOLATIONS},
}
