import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {subscribeEvents, type EventsSubscription} from '../../../src/client/daemon/events.js'
import type {DaemonEvent} from '../../../src/protocol/events.js'
import {json, runCli} from '../../support/cli.js'
import {serveTeam, type ServedTeam} from '../../support/served-team.js'
import {makeRepo} from '../../standard/fixtures.js'

let team: ServedTeam
let events: EventsSubscription
const seen: DaemonEvent<any>[] = []
const waiters: Array<() => void> = []
beforeAll(async () => {
  team = await serveTeam([{id: 'architect', replies: [], default: {say: 'Hi, turn {{turn}}: {{text}}'}}])
  events = subscribeEvents({
    url: team.url,
    token: team.token,
    onEvent(event) {
      seen.push(event as DaemonEvent<any>)
      for (const wake of waiters.splice(0)) wake()
    },
  })
  await events.opened
})
afterAll(async () => {
  events?.close()
  await team?.stop()
})

/** Resolves once the events seen so far satisfy `done` (no clock: each event re-checks). */
async function until(done: (events: DaemonEvent<any>[]) => boolean): Promise<void> {
  while (!done(seen)) await new Promise<void>((resolve) => waiters.push(resolve))
}
const ofConv = (conv: string, type: string) => seen.filter((event) => event.type === type && event.data.conv === conv)

describe('mesh queue', () => {
  it('queues turns in an idle conversation, reorders and edits them; each finished turn then sends the next one', async () => {
    const conv = 'c-0a1b2c3d4e5f'
    const one = json(await team.mesh(['queue', 'add', conv, 'first task', '--json']))
    expect(one).toMatchObject({id: expect.stringMatching(/^q-[0-9a-f]{12}$/), text: 'first task', position: 0, status: 'queued'})
    const twice = await team.mesh(['queue', 'add', conv, '-', '--file', '-', '--json'], {input: 'ignored'})
    expect([twice.code, json(twice).error.code]).toEqual([2, 'usage_text_twice'])
    expect(json(await team.mesh(['queue', 'add', conv, '-', '--json'], {input: 'second task\nwith details\n'}))).toMatchObject({position: 1})
    const two = json(await team.mesh(['queue', 'list', conv, '--json'])).items[1]

    const moved = await team.mesh(['queue', 'move', conv, two.id, '0'])
    expect(moved.code, moved.stderr).toBe(0)
    expect(moved.stdout).toBe(`Moved ${two.id} to position 0 in ${conv}.\n`)
    expect((await team.mesh(['queue', 'edit', conv, one.id, 'first task, edited'])).stdout).toBe(`Edited ${one.id} in ${conv}.\n`)
    const listed = await team.mesh(['queue', 'list', conv])
    expect(listed.stdout.split('\n')).toEqual([
      `${conv}: 2 item(s), version 4`,
      ` 0  ${two.id}  queued   second task …`,
      ` 1  ${one.id}  queued   first task, edited`,
      '',
    ])

    // Adding never sends: the operator's own turn starts the conversation, and its end sends the head.
    expect((await team.call('POST', '/chat/send', {conv, text: 'hello'})).status).toBe(202)
    await until(() => ofConv(conv, 'chat.assistant.final').length === 3)
    expect(ofConv(conv, 'chat.user').map((event) => [event.data.text, event.data.origin, event.data.author])).toEqual([
      ['hello', 'send', 'operator'],
      ['second task\nwith details\n', 'queue', 'operator'],
      ['first task, edited', 'queue', 'operator'],
    ])
    expect(ofConv(conv, 'chat.assistant.final').map((event) => event.data.text)).toEqual(['Hi, turn 1: hello', 'Hi, turn 2: second task\nwith details', 'Hi, turn 3: first task, edited'])
    expect(ofConv(conv, 'queue.item.sent').map((event) => event.data.item.id)).toEqual([two.id, one.id])
    expect(json(await team.mesh(['queue', 'list', conv, '--json']))).toMatchObject({conv, items: []})
    expect((await team.mesh(['queue', 'list', conv])).stdout).toBe(`The queue of ${conv} is empty.\n`)
  })

  it('promote sends an item now; remove takes one out', async () => {
    const conv = 'c-1a1b2c3d4e5f'
    const item = json(await team.mesh(['queue', 'add', conv, 'right away', '--json']))
    const promoted = await team.mesh(['queue', 'promote', conv, item.id])
    expect(promoted.code, promoted.stderr).toBe(0)
    expect(promoted.stdout).toMatch(new RegExp(`^Sent ${item.id} as turn t-[0-9a-f]{12} in ${conv} \\(running now\\)\\.\\n$`))
    await until(() => ofConv(conv, 'chat.assistant.final').length === 1)
    expect(ofConv(conv, 'chat.assistant.final')[0].data.text).toBe('Hi, turn 1: right away')

    const other = json(await team.mesh(['queue', 'add', conv, 'never mind', '--json']))
    const removed = json(await team.mesh(['queue', 'remove', conv, other.id, '--json']))
    expect(removed).toMatchObject({id: other.id, status: 'cancelled'})
    const again = await team.mesh(['queue', 'remove', conv, other.id, '--json'])
    expect(again.code).toBe(1)
    expect(json(again).error.code).toBe('item_not_found')
    expect(ofConv(conv, 'queue.item.removed').map((event) => event.data.item.id)).toEqual([other.id])
  })

  it('refuses bad input: malformed ids and missing text are usage errors (exit 2), the daemon’s limits exit 1', async () => {
    const badConv = await team.mesh(['queue', 'list', '../etc', '--json'])
    expect([badConv.code, json(badConv).error.code]).toEqual([2, 'usage_bad_conv'])
    const badId = await team.mesh(['queue', 'remove', 'c-1', 'q/../x', '--json'])
    expect([badId.code, json(badId).error.code]).toEqual([2, 'usage_bad_item_id'])
    const noText = await team.mesh(['queue', 'add', 'c-1', '--json'])
    expect([noText.code, json(noText).error.code]).toEqual([2, 'usage_missing_text'])
    const badPosition = await team.mesh(['queue', 'move', 'c-1', 'q-0a1b2c3d4e5f', '-1', '--json'])
    expect([badPosition.code, json(badPosition).error.code]).toEqual([2, 'usage_bad_position'])
    const badMember = await team.mesh(['queue', 'add', 'c-1', 'x', '--member', 'Not Me', '--json'])
    expect([badMember.code, json(badMember).error.code]).toEqual([2, 'usage_bad_member_id'])

    const big = await team.mesh(['queue', 'add', 'c-1', '--file', '-', '--json'], {input: 'é'.repeat(40_000)})
    expect(big.code).toBe(1)
    expect(json(big).error).toMatchObject({code: 'text_too_large', field: 'text'})
    const blank = await team.mesh(['queue', 'add', 'c-1', '   '])
    expect(blank.code).toBe(1)
    expect(blank.errorText).toMatch(/The item text is empty/)
  })

  it('says when no daemon serves the project', async () => {
    const repo = makeRepo()
    try {
      const result = await runCli(['queue', 'list', 'c-1', '--json'], {cwd: repo.root})
      expect([result.code, json(result).error.code]).toEqual([1, 'daemon_not_running'])
    } finally {
      repo.cleanup()
    }
  })
})
