/** A daemon context over a fixture project with a team, a fake engine and delegation started on it. */
import {createDaemon, type Daemon} from '../../../../src/daemon/daemon.js'
import {startDelegation, type Delegation} from '../../../../src/daemon/chat/delegation/index.js'
import type {DaemonEvent} from '../../../../src/protocol/events.js'
import {frontmatter, makeRepo, type FixtureRepo} from '../../../standard/fixtures.js'
import {fakeEngine, type FakeEngine} from '../fake-engine.js'

export const TEAM = ['architect', 'developer', 'git-manager', 'consultant', 'reviewer']

export const card = (id: string) => frontmatter({id, title: `The ${id}`, client: 'claude', model: 'opus', context: [], exposure: 'internal'}, `\nYou are the ${id}.\n`)

/** A fixture project whose roster is `members`. */
export function teamRepo(members = TEAM): FixtureRepo {
  const repo = makeRepo()
  repo.remove('.mesh/team')
  for (const id of members) repo.write(`.mesh/team/${id}.md`, card(id))
  return repo
}

export interface DelegationSetup {
  repo: FixtureRepo
  daemon: Daemon
  engine: FakeEngine
  delegation: Delegation
  events: DaemonEvent<any>[]
  /** The events of one type, their data. */
  seen(type: string): any[]
  close(): Promise<void>
}

export async function setupDelegation(options: {members?: string[]; repo?: FixtureRepo} = {}): Promise<DelegationSetup> {
  const repo = options.repo ?? teamRepo(options.members)
  const daemon = await createDaemon({root: repo.root, areas: []})
  const events: DaemonEvent<any>[] = []
  daemon.context.events.subscribe((event) => void events.push(event))
  const engine = fakeEngine()
  const delegation = startDelegation(daemon.context, engine)
  return {
    repo,
    daemon,
    engine,
    delegation,
    events,
    seen: (type) => events.filter((event) => event.type === type).map((event) => event.data),
    async close() {
      await delegation.flush()
      await daemon.service.close()
      repo.cleanup()
    },
  }
}
