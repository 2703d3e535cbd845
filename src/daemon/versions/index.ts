/**
 * The versions area: the daemon issues every module version (spec:
 * Endpoints), kept in links.yaml `repo.version` (docs/daemon-api.md, Versions).
 */
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import {versionRoutes} from './routes.js'

export {issueVersion, type IssuedVersion, type VersionRequest} from './issue.js'
export {bumpVersion, parseVersion, BUMPS, FIRST_VERSION, type Bump} from './semver.js'

export const versionsArea = (context: DaemonContext): DaemonArea => ({name: 'versions', routes: versionRoutes(context)})
