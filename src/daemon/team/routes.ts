/**
 * The team routes (spec: Endpoints — `/team`, `/team/<id>`, `/team/draft`,
 * `/team/<id>/.well-known/agent.json`; Authentication — member tokens).
 * Reads are open; every write and every token route needs the portal token.
 * docs/daemon-api.md, Team.
 */
import {notFound} from '../../lib/errors.js'
import {assertValid} from '../../lib/schemas.js'
import type {DaemonContext} from '../context.js'
import {listProjectFolder} from '../project-files.js'
import {answer, type Route, type RouteRequest} from '../route-table.js'
import {memberIdOf, readMember, type MemberCard} from './cards.js'
import {assertKnownClient} from './client-check.js'
import {draftMember} from './draft.js'
import {memberTokens} from './member-tokens.js'
import {createMember, deleteMember, patchMember, type MemberInput, type MemberPatch} from './members.js'
import {memberPublicCard} from './public-card.js'
import {readRoster} from './roster.js'

/** The context tree's node ids: the stems of `.mesh/context/*.md`. */
async function contextIds(context: DaemonContext): Promise<string[]> {
  const entries = await listProjectFolder(context, 'context').catch(() => [])
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.md')).map((entry) => entry.name.slice(0, -3)).sort()
}

/**
 * Where this daemon answers, from the request's Host: the perimeter has
 * already refused any Host that is not loopback (DECISIONS: Daemon auth), so
 * it is the address the caller reached the daemon at.
 */
function daemonUrlOf(request: RouteRequest): string {
  const host = request.headers.host
  return `http://${typeof host === 'string' && host !== '' ? host : '127.0.0.1'}`
}

const notExposed = (id: string) => notFound('member_not_found', `No exposed team member ${id}`)

export function teamRoutes(context: DaemonContext): Route[] {
  const tokens = memberTokens(context)
  const external = async (id: string): Promise<MemberCard> => {
    const member = await readMember(context, id)
    if (member.exposure !== 'external' || member.problem) throw notExposed(id)
    return member
  }
  return [
    {
      method: 'GET',
      path: '/team',
      auth: 'none',
      // Each member with the access its turns run at on this machine (issue 19).
      handle: () => readRoster(context),
    },
    {
      method: 'POST',
      path: '/team',
      auth: 'portal',
      async handle(request) {
        const input = assertValid<MemberInput>('daemon-team-create', await request.body())
        if (input.client !== undefined) await assertKnownClient(context, input.client)
        return answer(await createMember(context, input), 201)
      },
    },
    {
      method: 'POST',
      path: '/team/draft',
      auth: 'portal',
      async handle(request) {
        const {text} = assertValid<{text: string}>('daemon-team-draft', await request.body())
        return draftMember(text, await contextIds(context))
      },
    },
    {method: 'GET', path: '/team/:id', auth: 'none', handle: ({params}) => readMember(context, memberIdOf(params.id))},
    {
      method: 'PATCH',
      path: '/team/:id',
      auth: 'portal',
      async handle(request) {
        const id = memberIdOf(request.params.id)
        const patch = assertValid<MemberPatch>('daemon-team-patch', await request.body())
        if (typeof patch.client === 'string') await assertKnownClient(context, patch.client)
        return patchMember(context, id, patch)
      },
    },
    {
      method: 'DELETE',
      path: '/team/:id',
      auth: 'portal',
      async handle({params}) {
        const id = memberIdOf(params.id)
        await deleteMember(context, id)
        return {id, deleted: true}
      },
    },
    {
      method: 'GET',
      path: '/team/:id/token',
      auth: 'portal',
      async handle({params}) {
        const id = memberIdOf(params.id)
        await external(id)
        const token = (await tokens.get(id)) ?? (await tokens.ensure(id))
        return {id, token}
      },
    },
    {
      method: 'POST',
      path: '/team/:id/rotate',
      auth: 'portal',
      async handle({params}) {
        const id = memberIdOf(params.id)
        await external(id)
        return {id, token: await tokens.rotate(id)}
      },
    },
    {
      method: 'GET',
      path: '/team/:id/.well-known/agent.json',
      auth: 'none',
      async handle(request) {
        const member = await external(memberIdOf(request.params.id))
        return memberPublicCard(member, daemonUrlOf(request), context.version)
      },
    },
  ]
}
