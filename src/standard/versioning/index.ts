/** Standard versioning: status against the canonical version, built-in migrations (spec "Versioning"). */
export {standardStatus, type StandardStatus, type StatusOptions} from './status.js'
export {migrateStandard, AUTOMATIC_VERSIONS, type MigrationReport, type MigratedFile} from './migrate.js'
export {migrateTeamCard, type CardMigration} from './team-card.js'
export {BUILTIN_CHANGELOG, BUILTIN_LATEST, parseChangelog, entriesBetween, type ChangelogEntry} from './changelog.js'
export {resolveStandardUrls, siteFromDocs, fetchText, parseCanonicalVersion, type StandardUrls} from './remote.js'
export {readInstalledVersion} from './installed.js'
