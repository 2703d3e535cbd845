/**
 * The areas `mesh serve` runs, in the order their routes are matched. An area
 * is a folder of src/daemon/ with a route table and its background work; a
 * new one is added here (docs/daemon.md, Areas).
 */
import type {DaemonContext} from './context.js'
import type {DaemonArea} from './area.js'
import {tasksArea} from './tasks/index.js'
import {authoringArea} from './authoring/index.js'
import {versionsArea} from './versions/index.js'
import {watchArea} from './watch/index.js'
import {stateArea} from './state/index.js'
import {sessionLogArea} from './session-log/index.js'
import {protocolsArea, workflowsArea} from './workflows/index.js'
import {linksArea} from './links/index.js'
import {storageArea} from './storage/index.js'
import {transportArea} from './transport/index.js'
import {gitArea} from './git/index.js'
import {standardCheckArea} from './standard-check/index.js'
import {teamArea} from './team/index.js'
import {chatArea} from './chat/index.js'
import {architectArea} from './architect/index.js'
import {historyArea} from './history/index.js'
import {ideArea} from './ide/index.js'

export const DEFAULT_AREAS: Array<(context: DaemonContext) => DaemonArea> = [
  tasksArea,
  authoringArea,
  watchArea,
  // After the watcher: its first rebuild runs once changes are being heard.
  stateArea,
  // Before chat: it hears every final, and closes after chat's shutdown finals went out.
  sessionLogArea,
  versionsArea,
  workflowsArea,
  protocolsArea,
  linksArea,
  storageArea,
  transportArea,
  (context) => gitArea(context),
  (context) => standardCheckArea(context),
  teamArea,
  chatArea,
  // After chat: its passes run on the chat area's engine.
  architectArea,
  historyArea,
  // The operator's pages: they read and write through the routes above.
  ideArea,
]
