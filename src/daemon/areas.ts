/**
 * The areas `mesh serve` runs, in the order their routes are matched. An area
 * is a folder of src/daemon/ with a route table and its background work; a
 * new one is added here (docs/daemon.md, Areas). An area that is routes alone
 * is listed with lazyArea: its routes are declared here and its modules load
 * on its first request, so they cost nothing before /health answers
 * (docs/architecture.md, Start-up; test/daemon/areas.test.ts holds each
 * declaration to the area's real table).
 */
import type {DaemonContext} from './context.js'
import type {DaemonArea} from './area.js'
import {lazyArea, type AreaBuilder, type DeclaredRoute} from './lazy-area.js'
import {tasksArea} from './tasks/index.js'
import {watchArea} from './watch/index.js'
import {stateArea} from './state/index.js'
import {sessionLogArea} from './session-log/index.js'
import {storageArea} from './storage/index.js'
import {networkArea} from './network/index.js'
import {transportArea} from './transport/index.js'
import {gitArea} from './git/index.js'
import {standardCheckArea} from './standard-check/index.js'
import {teamArea} from './team/index.js'
import {chatArea} from './chat/index.js'
import {architectArea} from './architect/index.js'

const portal = (method: DeclaredRoute['method'], path: string): DeclaredRoute => ({method, path, auth: 'portal'})
const open = (path: string): DeclaredRoute => ({method: 'GET', path, auth: 'none'})
/** An IDE page the browser navigates to, on its session cookie. */
const page = (path: string): DeclaredRoute => ({method: 'GET', path, auth: 'session'})

/** The routes-only areas: each one's routes as the router must know them before the area loads, and its loader. */
export const LAZY_AREAS = {
  authoring: {
    routes: [portal('POST', '/initiatives'), portal('POST', '/roadmap/build'), portal('POST', '/standard/migrate'), portal('POST', '/render/resources')],
    load: async () => (await import('./authoring/index.js')).authoringArea,
  },
  versions: {routes: [portal('POST', '/version/next')], load: async () => (await import('./versions/index.js')).versionsArea},
  workflows: {routes: [open('/workflows'), open('/workflows/:id'), open('/workflows/:id/runs')], load: async () => (await import('./workflows/index.js')).workflowsArea},
  protocols: {routes: [open('/protocols'), open('/protocols/:id'), open('/protocols/:id/runs')], load: async () => (await import('./workflows/index.js')).protocolsArea},
  links: {routes: [open('/links'), open('/links/:id'), portal('POST', '/links/:id')], load: async () => (await import('./links/index.js')).linksArea},
  history: {routes: [portal('GET', '/timeline'), portal('GET', '/timeline/:day'), portal('GET', '/validate')], load: async () => (await import('./history/index.js')).historyArea},
  ide: {
    // In the area's own order: the router tries routes in the order they were added.
    routes: [
      {method: 'POST', path: '/ide/login-code', auth: 'bearer'},
      open('/login'),
      portal('GET', '/ide/session'),
      portal('POST', '/ide/logout'),
      page('/'),
      page('/ide/team'),
      portal('GET', '/ide/tasks/:id'),
      page('/ide/roadmap'),
      page('/ide/project'),
      page('/ide/file'),
      portal('GET', '/ide/roadmap/fragment'),
      open('/ide/assets/:file'),
    ],
    load: async () => (await import('./ide/index.js')).ideArea,
  },
} satisfies Record<string, {routes: DeclaredRoute[]; load: () => Promise<AreaBuilder>}>

const lazy = (name: keyof typeof LAZY_AREAS) => lazyArea(name, LAZY_AREAS[name].routes, LAZY_AREAS[name].load)

export const DEFAULT_AREAS: Array<(context: DaemonContext) => DaemonArea> = [
  tasksArea,
  lazy('authoring'),
  watchArea,
  // After the watcher: its first rebuild runs once changes are being heard.
  stateArea,
  // Before chat: it hears every final, and closes after chat's shutdown finals went out.
  sessionLogArea,
  lazy('versions'),
  lazy('workflows'),
  lazy('protocols'),
  lazy('links'),
  storageArea,
  networkArea,
  transportArea,
  (context) => gitArea(context),
  (context) => standardCheckArea(context),
  teamArea,
  chatArea,
  // After chat: its passes run on the chat area's engine.
  architectArea,
  lazy('history'),
  // The operator's pages: they read and write through the routes above.
  lazy('ide'),
]
