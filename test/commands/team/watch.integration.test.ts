import {readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {subscribeEvents} from '../../../src/client/daemon/events.js'
import type {SpawnedCli} from '../../support/cli.js'
import {serveTeam, type ServedTeam} from '../../support/served-team.js'
import {marker} from '../../daemon/chat/script-team.js'

let team: ServedTeam
beforeAll(async () => {
  team = await serveTeam([
    {id: 'architect', replies: [{when: 'delegate', say: `handing on\n${marker('delegate', {member: 'developer', brief: 'Build the login form'})}`}], default: {say: 'noted'}},
    {id: 'developer', replies: [], default: {say: `building the form\n${marker('report', {status: 'done', summary: 'built'})}`}},
    {id: 'tester', replies: [], default: {say: 'testing for a long time', hang: true}},
  ])
})
afterAll(async () => {
  await team?.stop()
})

type Line = {type: string; ts: string; data: any}

/** Reads NDJSON lines of the watcher until one satisfies `done`; answers every line read. */
async function readUntil(watcher: SpawnedCli, done: (line: Line) => boolean): Promise<Line[]> {
  const lines: Line[] = []
  for (;;) {
    const line = JSON.parse(await watcher.nextLine()) as Line
    lines.push(line)
    if (done(line)) return lines
  }
}

describe('mesh team watch in a pipe', () => {
  it('prints a snapshot, then one NDJSON line per team event: turns, a delegation and its report, the wake, queue items, roster changes', async () => {
    const watcher = team.spawn(['team', 'watch'])
    const snapshot = JSON.parse(await watcher.nextLine()) as Line
    expect(snapshot).toMatchObject({type: 'snapshot', ts: expect.any(String), data: {convs: [], turns: [], requests: [], queues: []}})
    expect(snapshot.data.members.map((member: {id: string}) => member.id)).toEqual(['architect', 'developer', 'tester'])

    const sent = await team.call('POST', '/chat/send', {member: 'architect', text: 'please delegate this'})
    expect(sent.status).toBe(202)
    const conv = sent.body.conv as string
    // The architect's turn hands on; the developer's report closes the request and wakes the architect.
    const lines = await readUntil(watcher, (line) => line.type === 'chat.assistant.final' && line.data.conv === conv && line.data.turn_id !== sent.body.turn_id)
    const story = lines.filter((line) => line.type !== 'chat.assistant.delta' && line.type !== 'chat.user').map((line) => `${line.type} ${line.data.conv ?? ''}`.trim())
    expect(story).toEqual([
      `chat.turn.started ${conv}`,
      `chat.assistant.final ${conv}`,
      'delegation.opened m-developer',
      'chat.turn.started m-developer',
      'chat.assistant.final m-developer',
      'delegation.closed m-developer',
      // Issue 19: the session, its request answered, is idle (what `mesh ask` follows a piece of work up to).
      'chat.idle m-developer',
      `chat.turn.started ${conv}`,
      `chat.assistant.final ${conv}`,
    ])
    expect(lines.find((line) => line.type === 'delegation.opened')!.data).toMatchObject({member: 'developer', requester: {conv, member: 'architect'}})
    expect(lines.find((line) => line.type === 'chat.assistant.delta' && line.data.conv === 'm-developer')!.data.text).toBe('building the form')
    expect(lines.filter((line) => line.type === 'chat.turn.started' && line.data.conv === conv).map((line) => line.data.origin)).toEqual(['send', 'wake'])

    const queued = await team.call('POST', `/chat/conv/${conv}/queue`, {text: 'and then the tests'})
    expect(queued.status).toBe(201)
    expect((await readUntil(watcher, (line) => line.type.startsWith('queue.item.'))).at(-1)).toMatchObject({type: 'queue.item.added', data: {conv, item: {id: queued.body.id, status: 'queued'}}})

    const added = await team.mesh(['team', 'add', 'reviewer', '--title', 'Reviewer'])
    expect(added.code, added.stderr).toBe(0)
    expect((await readUntil(watcher, (line) => line.type.startsWith('team.'))).at(-1)).toEqual({type: 'team.created', ts: expect.any(String), data: {id: 'reviewer'}})

    expect(await watcher.stop('SIGINT')).toBe(0)
    expect(watcher.stderr()).toBe('')
    expect(watcher.lines.join('\n')).not.toContain(team.token)
  })

  it('shows work in progress in its snapshot: the live turn, its open request and the queue waiting behind it', async () => {
    // The snapshot is read once the tester's turn has started.
    let started!: () => void
    const turnStarted = new Promise<void>((resolve) => (started = resolve))
    const events = subscribeEvents({url: team.url, token: team.token, onEvent: (event) => event.type === 'chat.turn.started' && event.data.conv === 'm-tester' && started()})
    await events.opened
    const delegated = await team.call('POST', '/chat/delegate', {member: 'tester', brief: 'Test everything'})
    expect(delegated.status).toBe(202)
    const item = await team.call('POST', '/chat/conv/m-tester/queue', {text: 'then test it again'})
    expect(item.status).toBe(201)
    await turnStarted
    events.close()
    const watcher = team.spawn(['team', 'watch', '--json'])
    const snapshot = JSON.parse(await watcher.nextLine()) as Line
    expect(snapshot.type).toBe('snapshot')
    expect(snapshot.data.convs.find((view: {conv: string}) => view.conv === 'm-tester')).toMatchObject({member: 'tester', live: true, turn_id: delegated.body.turn_id})
    expect(snapshot.data.turns).toEqual([expect.objectContaining({turn_id: delegated.body.turn_id, conv: 'm-tester', profile: 'tester', status: 'running'})])
    expect(snapshot.data.requests).toEqual([expect.objectContaining({request_id: delegated.body.request_id, conv: 'm-tester', requester: {conv: null, member: 'operator'}, brief: 'Test everything'})])
    expect(snapshot.data.queues).toEqual(expect.arrayContaining([expect.objectContaining({conv: 'm-tester', items: [expect.objectContaining({id: item.body.id, status: 'queued'})]})]))
    expect(await watcher.stop('SIGINT')).toBe(0)
  })

  it('lists the queues of idle conversations in its snapshot, and prints the file events of queues and cards', async () => {
    expect((await team.call('POST', '/chat/conv/c-idle-pipe/queue', {text: 'waiting for its turn', member: 'architect'})).status).toBe(201)
    const watcher = team.spawn(['team', 'watch'])
    const snapshot = JSON.parse(await watcher.nextLine()) as Line
    expect(snapshot.data.convs.some((view: {conv: string}) => view.conv === 'c-idle-pipe')).toBe(false)
    expect(snapshot.data.queues).toEqual(expect.arrayContaining([expect.objectContaining({conv: 'c-idle-pipe', member: 'architect', items: [expect.objectContaining({text: 'waiting for its turn', status: 'queued'})]})]))

    const queueFile = join(team.repo.root, '.mesh/queues/c-idle-pipe.json')
    writeFileSync(queueFile, readFileSync(queueFile, 'utf8').replace('waiting for its turn', 'edited by hand'))
    expect((await readUntil(watcher, (line) => line.type === 'file.changed')).at(-1)!.data).toEqual({path: '.mesh/queues/c-idle-pipe.json', change: 'changed'})
    const cardFile = join(team.repo.root, '.mesh/team/developer.md')
    writeFileSync(cardFile, readFileSync(cardFile, 'utf8') + '\nMind the tests.\n')
    expect((await readUntil(watcher, (line) => line.type === 'file.changed')).at(-1)!.data).toEqual({path: '.mesh/team/developer.md', change: 'changed'})
    rmSync(queueFile)
    expect((await readUntil(watcher, (line) => line.type === 'file.changed')).at(-1)!.data).toEqual({path: '.mesh/queues/c-idle-pipe.json', change: 'removed'})
    // Other files are not the team's: a doc written now is not printed before the queue's next change.
    writeFileSync(join(team.repo.root, '.mesh/docs/unrelated.md'), 'x\n')
    expect((await team.call('POST', '/chat/conv/c-idle-pipe/queue', {text: 'again', member: 'architect'})).status).toBe(201)
    expect((await readUntil(watcher, (line) => line.type.startsWith('queue.') || line.type === 'file.changed')).at(-1)).toMatchObject({type: 'queue.item.added', data: {conv: 'c-idle-pipe'}})
    expect(await watcher.stop('SIGINT')).toBe(0)
  })

  it('says when no daemon serves the project', async () => {
    const {makeRepo} = await import('../../standard/fixtures.js')
    const {runCli} = await import('../../support/cli.js')
    const repo = makeRepo()
    try {
      const result = await runCli(['team', 'watch'], {cwd: repo.root})
      expect(result.code).toBe(1)
      expect(result.errorText).toMatch(/No daemon serves this project/)
    } finally {
      repo.cleanup()
    }
  })
})

describe('mesh team watch across a daemon restart', () => {
  it('waits for the daemon and prints a fresh snapshot once it is back', async () => {
    const {makeRepo} = await import('../../standard/fixtures.js')
    const {writeScriptTeam} = await import('../../daemon/chat/script-team.js')
    const {spawnCli} = await import('../../support/cli.js')
    const repo = makeRepo()
    writeScriptTeam(repo.root, [{id: 'architect', replies: [], default: {say: 'ok'}}])
    let server = spawnCli(['serve', '--port', '0', '--json'], {cwd: repo.root})
    const watchers: SpawnedCli[] = []
    try {
      expect((await server.nextJson()).event).toBe('listening')
      const watcher = spawnCli(['team', 'watch'], {cwd: repo.root})
      watchers.push(watcher)
      expect(JSON.parse(await watcher.nextLine()).type).toBe('snapshot')
      expect(await server.stop('SIGINT')).toBe(0)
      server = spawnCli(['serve', '--port', '0', '--json'], {cwd: repo.root})
      // Port 0: the daemon is found again through daemon.json, whatever port it has now.
      expect((await server.nextJson()).event).toBe('listening')
      const again = JSON.parse(await watcher.nextLine())
      expect(again).toMatchObject({type: 'snapshot', data: {members: [expect.objectContaining({id: 'architect'})]}})
      expect(watcher.stderr()).toMatch(/waiting for the daemon \(/)
      expect(await watcher.stop('SIGINT')).toBe(0)
    } finally {
      await Promise.all(watchers.map((watcher) => watcher.stop()))
      await server.stop()
      repo.cleanup()
    }
  })
})
