/**
 * Workflows and protocols are the same kind of runbook in two folders
 * (spec: Workflow file; DECISIONS: workflow ids `^W\d+$`, protocol ids
 * `^P\d+$`, one shared schema). Everything that differs is named here.
 */
import {PROTOCOL_ID, STANDARD_PATHS, WORKFLOW_ID} from '../../standard/constants.js'

export interface RunbookKind {
  /** Singular, for messages and error codes: `workflow_not_found`. */
  name: 'workflow' | 'protocol'
  /** The folder under `.mesh/`, also the route prefix: `/workflows`. */
  folder: string
  /** The id shape. */
  id: RegExp
  /** A runbook file: `W<N>-<slug>.md` (`W<N>.md` is read too). */
  file: RegExp
}

export const WORKFLOWS: RunbookKind = {name: 'workflow', folder: STANDARD_PATHS.workflows, id: WORKFLOW_ID, file: /^(W\d+)(?:-.*)?\.md$/}
export const PROTOCOLS: RunbookKind = {name: 'protocol', folder: STANDARD_PATHS.protocols, id: PROTOCOL_ID, file: /^(P\d+)(?:-.*)?\.md$/}

/** spec: run logs are `<folder>/log/<YYYY-MM>/<id>-<YYYY-MM-DD>-<context>.md`. */
export const RUN_LOG_FOLDER = 'log'
export const RUN_LOG_FILE = /^([WP]\d+)-(\d{4}-\d{2}-\d{2})-(.+)\.md$/
