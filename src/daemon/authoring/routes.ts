/**
 * The authoring area's routes (docs/daemon-api.md, Authoring): the writes of
 * `mesh initiative create`, `mesh roadmap build`, `mesh standard migrate` and
 * `mesh render --resources`, made by the daemon while it runs, so it stays
 * the one writer of `.mesh/` (STYLE: one writer per file; issue 20). Each
 * runs the standard library's own function with the daemon's project writer.
 */
import {lstat} from 'node:fs/promises'
import {relative, sep} from 'node:path'
import {createMutex} from '../../lib/mutex.js'
import {assertValid} from '../../lib/schemas.js'
import {BY_OPERATOR} from '../../protocol/tasks.js'
import {TEAM_EVENTS, type TeamEventData} from '../../protocol/team.js'
import {createInitiative} from '../../standard/initiatives/index.js'
import {renderResources} from '../../standard/render/index.js'
import {buildRoadmap} from '../../standard/roadmap/index.js'
import {migrateStandard} from '../../standard/versioning/index.js'
import type {DaemonContext} from '../context.js'
import {answer, type Route} from '../route-table.js'
import {assertActor, daemonTaskError} from '../tasks/index.js'
import {INITIATIVE_CREATED_EVENT, INITIATIVE_REASON, MIGRATE_REASON, RESOURCES_REASON} from './constants.js'

interface InitiativeBody {
  title: string
  id?: string
  status?: string
  owner?: string
  modules?: string[]
  tags?: string[]
  parent_initiative?: string
  by?: string
}

export function authoringRoutes(context: DaemonContext): Route[] {
  // One authoring write at a time in this daemon: two creates of one derived id never both see it free.
  const mutex = createMutex()
  const insideMesh = (absolutePath: string) => relative(context.meshPath(), absolutePath).split(sep).join('/')
  const write = (reason: string) => async (absolutePath: string, text: string) => {
    await context.writer.write(insideMesh(absolutePath), text, {reason})
  }
  const wire = <T>(work: () => Promise<T>) =>
    mutex.run(async () => {
      try {
        return await work()
      } catch (error) {
        throw daemonTaskError(error)
      }
    })

  return [
    {
      method: 'POST',
      path: '/initiatives',
      auth: 'portal',
      async handle(request) {
        const {parent_initiative: parentInitiative, by = BY_OPERATOR, ...body} = assertValid<InitiativeBody>('daemon-initiative-create', await request.body())
        await assertActor(context.root, by)
        const created = await wire(() =>
          createInitiative(context.root, {
            ...body,
            parentInitiative,
            now: new Date(context.clock()),
            // Exclusive as the command's own create: a name taken by any entry (a link too) is not written over.
            create: async (absolutePath, text) => {
              if (await lstat(absolutePath).then(() => true, () => false)) return false
              await write(INITIATIVE_REASON)(absolutePath, text)
              return true
            },
          }),
        )
        context.events.publish(INITIATIVE_CREATED_EVENT, {id: created.id, path: created.path, by})
        return answer(created, 201)
      },
    },
    {
      method: 'POST',
      path: '/roadmap/build',
      auth: 'portal',
      // Generated, deny-listed files: written atomically, not snapshotted (they are rebuilt from the sources at will).
      handle: () => wire(() => buildRoadmap(context.root)),
    },
    {
      method: 'POST',
      path: '/standard/migrate',
      auth: 'portal',
      async handle(request) {
        const body = assertValid<{dry_run?: boolean}>('daemon-standard-migrate', await request.body())
        const report = await wire(() => migrateStandard(context.root, {dryRun: body.dry_run ?? false, write: write(MIGRATE_REASON)}))
        if (!report.dry_run) {
          // As the team area's own migration: each rewritten card is a team.updated.
          for (const file of report.changed) context.events.publish(TEAM_EVENTS.updated, {id: file.path.split('/').pop()!.replace(/\.md$/, '')} satisfies TeamEventData)
        }
        return report
      },
    },
    {
      method: 'POST',
      path: '/render/resources',
      auth: 'portal',
      async handle(request) {
        const body = assertValid<{text: string}>('daemon-render-resources', await request.body())
        return wire(() => renderResources(context.root, body.text, {write: write(RESOURCES_REASON)}))
      },
    },
  ]
}
