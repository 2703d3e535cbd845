/**
 * The layer rules of docs/architecture.md (Checked rules), run by
 * `npm run lint:layers`, the first step of `npm test`. This file checks every
 * import as written, `import type` included (marked type-only);
 * .dependency-cruiser-runtime.cjs checks what Node really loads.
 * A violation prints the rule, the importing file, the imported one and why;
 * any error fails the step.
 */
const COMMANDS = '^src/commands/'
/** The command tier: the commands and src/cli, the base command and flag checks they share. */
const COMMAND_TIER = '^src/(commands|cli)/'
const SERVICES = '^src/(standard|registry|cluster|daemon|agent)/'
/** The client layer: callers' HTTP/WS clients (registry, relay, daemon, agents). */
const CLIENT = '^src/client/'
const SHARED = '^src/(http|store|bus|identity|protocol|client|tui|lib)/'
/** A service's wire.ts holds the shapes both sides speak: the client layer may `import type` from it. */
const SERVICE_WIRE = `${SERVICES}(wire|.*/wire)\\.ts$`
/** Koa, its router and its composer. */
const KOA = '(^|/)node_modules/(koa|@koa/router|koa-compose)/'
/** Server-side packages: the HTTP framework and the database drivers. */
const SERVER_PACKAGES = '(^|/)node_modules/(koa|@koa/router|koa-compose|better-sqlite3|pg|pg-[^/]+)/'
/** HTTP adapter files: the only ones that may import Koa or its router. */
const HTTP_ADAPTERS = [
  '^src/http/', // the shared HTTP layer: host, error middleware, bodies, the MeshService seam
  '^src/.+/http/', // a service's HTTP folder (src/registry/http/, src/cluster/http/)
  '/routes\\.ts$', // an area's routes (src/registry/search/routes.ts, src/cluster/boards/routes.ts)
  '/part\\.ts$', // an area's MeshService part
  '/koa\\.ts$', // a shared layer's Koa adapter (src/identity/koa.ts: Mesh-Sig as middleware)
]

/** Violations known today, skipped (and counted as ignored) until their import is gone: none. */
const KNOWN_VIOLATIONS = []

module.exports = {
  forbidden: [
    {
      name: 'no-upward-to-commands',
      comment: 'Commands are the top layer: no service and no shared layer imports a command.',
      severity: 'error',
      from: {path: '^src/', pathNot: COMMANDS},
      to: {path: COMMANDS},
    },
    {
      name: 'only-commands-to-cli',
      comment: 'src/cli belongs to the command tier: only commands import it, nothing below does.',
      severity: 'error',
      from: {path: '^src/', pathNot: COMMAND_TIER},
      to: {path: '^src/cli/'},
    },
    {
      name: 'shared-not-to-services',
      comment: 'Shared layers sit below the services and import none of them (the client layer has its own rule).',
      severity: 'error',
      from: {path: SHARED, pathNot: CLIENT},
      to: {path: SERVICES},
    },
    {
      name: 'client-not-to-server-code',
      comment: "The client layer imports no service code; only `import type` from a service's wire.ts.",
      severity: 'error',
      from: {path: CLIENT},
      to: {path: SERVICES, pathNot: SERVICE_WIRE},
    },
    {
      name: 'client-wire-type-only',
      comment: "The client layer uses a service's wire.ts for its types only: a value import would load server code.",
      severity: 'error',
      from: {path: CLIENT},
      to: {path: SERVICE_WIRE, dependencyTypesNot: ['type-only']},
    },
    {
      name: 'wire-is-type-only',
      comment: "A service's wire.ts only re-exports or derives types: importing it loads nothing.",
      severity: 'error',
      from: {path: SERVICE_WIRE},
      to: {dependencyTypesNot: ['type-only']},
    },
    {
      name: 'client-not-to-server-packages',
      comment: 'The client layer imports neither Koa nor a database driver, not even for types.',
      severity: 'error',
      from: {path: CLIENT},
      to: {path: SERVER_PACKAGES},
    },
    {
      name: 'koa-only-in-http-adapters',
      comment: 'Only HTTP adapter files (src/http/, */http/, routes.ts, part.ts, koa.ts) import Koa or its router; the rest speaks MeshService (src/http/service.ts).',
      severity: 'error',
      from: {path: '^src/', pathNot: HTTP_ADAPTERS},
      to: {path: KOA},
    },
    {
      name: 'protocol-imports-nothing',
      comment: 'src/protocol holds the wire rules both ends share; it imports nothing, so loading it loads no server code.',
      severity: 'error',
      from: {path: '^src/protocol/'},
      to: {pathNot: '^src/protocol/'},
    },
    {
      name: 'relay-not-to-registry',
      comment: 'The relay runs alone (`mesh serve relay`): src/cluster imports nothing from src/registry; the registry composes the relay, not the reverse.',
      severity: 'error',
      from: {path: '^src/cluster/'},
      to: {path: '^src/registry/'},
    },
    {
      name: 'daemon-client-only-in-transport',
      comment: "The daemon is a service: it reaches the client layer only from src/daemon/transport/, where it joins a relay as a member (the relay client's connection and backoff). Contracts it shares with its own callers (daemon.json, /events) live in src/protocol/, helpers in src/lib/.",
      severity: 'error',
      from: {path: '^src/daemon/', pathNot: '^src/daemon/transport/'},
      to: {path: CLIENT},
    },
    {
      name: 'agent-kit-stands-alone',
      comment: 'The agent kit (mesh/agent) runs in an agent\'s own process: src/agent imports no other service, so an agent never loads the registry, relay, daemon or standard.',
      severity: 'error',
      from: {path: '^src/agent/'},
      to: {path: '^src/(standard|registry|cluster|daemon)/'},
    },
    {
      name: 'no-undeclared-package',
      comment: 'Every package the code imports is declared in package.json.',
      severity: 'error',
      from: {path: '^(src|bin)/'},
      to: {dependencyTypes: ['npm-no-pkg', 'npm-unknown', 'unknown', 'undetermined']},
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves to a file or an installed package.',
      severity: 'error',
      from: {path: '^(src|bin)/'},
      to: {couldNotResolve: true},
    },
  ],
  options: {
    doNotFollow: {path: '(^|/)node_modules/'},
    // Keep `import type` edges (marked type-only): the client rules tell them apart.
    tsPreCompilationDeps: true,
    tsConfig: {fileName: 'tsconfig.build.json'},
    moduleSystems: ['es6', 'cjs'],
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    // LAYERS_STRICT=1 lists the known violations too.
    knownViolations: process.env.LAYERS_STRICT ? [] : KNOWN_VIOLATIONS,
  },
}
