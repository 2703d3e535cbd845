/**
 * Issue 20's bar, through the real binary: a turn's `mesh task move` and the
 * daemon's task resolution race on one task file, 100 rounds. In each round
 * one `mesh task move GEN1 blocked` process (as the member `reviewer`, the
 * way an agent's shell runs it) and a script-client turn of `developer` whose
 * report resolves GEN1 (the daemon writes done, the stamps and `## Resolution`)
 * start together, the CLI's start staggered a little differently each round.
 * After each round:
 * - both writes happened, each announced once (`task.updated` by reviewer and
 *   by developer), the file's status is the later one's, and the Resolution
 *   of this round is in the file whichever came last — never lost;
 * - every write left a snapshot (3 a round: the reset, the move, the
 *   resolution), and the later write was made over the earlier one's result
 *   (its snapshot holds the earlier write's effect): nothing interleaved;
 * and at the end `mesh daemon restore` undoes the last move, and its undo
 * brings it back. The old `mesh task move` wrote the file itself: no
 * snapshot (2 a round, not 3), and its write could carry a body read before
 * the resolution's.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import WebSocket from 'ws'
import {parseFrontmatter, splitFrontmatter} from '../../../src/standard/frontmatter.js'
import {marker, writeScriptTeam} from '../../daemon/chat/script-team.js'
import {tempProject} from '../../standard/scaffold/temp-project.js'
import {json, runCli, spawnCli, type CliResult, type SpawnedCli} from '../../support/cli.js'

const ROUNDS = 100
const WAIT_MS = 30_000
const TASK = '.mesh/modules/general/tasks/GEN1-shared-file.md'

type Event = {type: string; data: any}

let server: SpawnedCli | undefined
let socket: WebSocket | undefined
afterEach(async () => {
  socket?.terminate()
  await server?.stop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8')
const dataOf = (text: string) => parseFrontmatter(text).data as Record<string, unknown>

/** The snapshot index lines of the task file, in the order the writes happened. */
function snapshotsOf(root: string): Array<{ts: string; snapshot: string; reason: string}> {
  const dir = join(root, '.mesh/snapshots')
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .sort()
    .flatMap((day) => readFileSync(join(dir, day, 'index.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line)))
    .filter((record) => record.path === TASK.slice('.mesh/'.length))
}

describe("issue 20 bar: a turn's mesh task move racing the daemon's resolution", () => {
  it(`never loses a write in ${ROUNDS} rounds, every write leaves a snapshot, and restore undoes a move`, {timeout: 20 * 60_000}, async () => {
    const root = await tempProject()
    writeScriptTeam(root, [
      // Resolves GEN1 with the turn's text in its final message (so each round's Resolution is its own).
      {id: 'developer', replies: [], default: {say: `Round {{text}} finished.\n${marker('report', {status: 'done', task: 'GEN1', summary: 'round'})}`}},
      {id: 'reviewer', replies: [], default: {say: 'Nothing to say.'}},
    ])
    const mesh = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> => runCli([...args, '--dir', root], {env})
    expect(json(await mesh(['task', 'create', '-m', 'general', '-t', 'Shared file', '--json'])).path).toBe(TASK)

    server = spawnCli(['serve', '--port', '0', '--json'], {cwd: root, env: {MESH_LOG_LEVEL: 'warn'}})
    const url = (await server.nextJson()).url as string
    const token = read(root, '.mesh/credentials/portal-token').trim()
    const events: Event[] = []
    socket = new WebSocket(`${url.replace('http', 'ws')}/events`, {headers: {authorization: `Bearer ${token}`}})
    socket.on('message', (data) => events.push(JSON.parse(String(data))))
    await new Promise((resolve, reject) => socket!.once('open', resolve).once('error', reject))
    const http = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${url}${path}`, {method, headers: {'content-type': 'application/json', authorization: `Bearer ${token}`}, body: JSON.stringify(body)})
      return {status: response.status, body: await response.json()}
    }
    const waitFor = async (from: number, match: (event: Event) => boolean, what: string): Promise<Event> => {
      await expect.poll(() => events.slice(from).some(match), {timeout: WAIT_MS, interval: 10, message: `no ${what}`}).toBe(true)
      return events.slice(from).find(match)!
    }

    const orders = {moveFirst: 0, resolutionFirst: 0}
    let retries = 0
    for (let round = 1; round <= ROUNDS; round++) {
      const reset = await http('POST', '/tasks/GEN1/transition', {status: 'next'})
      expect(reset.body, `round ${round}: reset`).toMatchObject({to: 'next', changed: true})
      const snapshotsBefore = snapshotsOf(root).length
      const from = events.length

      // The two writers start together; the CLI's start moves across the turn's run from round to round.
      const move = (async () => {
        for (;;) {
          const result = await mesh(['task', 'move', 'GEN1', 'blocked', '--json'], {MESH_MEMBER: 'reviewer'})
          // A refusal is only ever a clean one (the task lock busy for too long): tried again, never silently lost.
          if (result.code !== 0 && json(result).error?.code === 'tasks_locked') {
            retries++
            continue
          }
          return result
        }
      })()
      await sleep((round % 8) * 40)
      const sent = await http('POST', '/chat/send', {conv: 'c-race', member: 'developer', text: `r${round} #GEN1`})
      expect(sent.status, `round ${round}: send`).toBe(202)

      const moved = await move
      expect(moved.code, `round ${round}: ${moved.stderr}`).toBe(0)
      expect(json(moved)).toMatchObject({id: 'GEN1', to: 'blocked', changed: true, by: 'reviewer', via: 'daemon'})
      await waitFor(from, (e) => e.type === 'task.updated' && e.data.by === 'developer', `resolution in round ${round}`)
      await waitFor(from, (e) => e.type === 'chat.idle' && e.data.conv === 'c-race', `idle in round ${round}`)

      // Both writes, each announced once; the file holds the later one's status and this round's Resolution.
      const writes = events.slice(from).filter((e) => e.type === 'task.updated' && e.data.id === 'GEN1')
      expect(writes.map((e) => e.data.by).sort(), `round ${round}`).toEqual(['developer', 'reviewer'])
      const [first, last] = writes
      const text = read(root, TASK)
      const data = dataOf(text)
      expect(data.status, `round ${round}`).toBe(last.data.to)
      const body = splitFrontmatter(text).body
      expect(body.slice(body.indexOf('\n## Resolution\n')), `round ${round}: the resolution's section`).toContain(`r${round} #GEN1 finished.`)
      if (last.data.by === 'reviewer') {
        orders.resolutionFirst++
        expect(data, `round ${round}: a task moved out of done loses its stamps`).not.toHaveProperty('resolved_by')
      } else {
        orders.moveFirst++
        expect(data, `round ${round}`).toMatchObject({status: 'done', resolved_by: 'developer', resolved_by_conv: 'c-race'})
      }

      // The round's two writes, two snapshots (the reset's is counted before); the later write was made over the earlier one's result.
      const snapshots = snapshotsOf(root)
      expect(snapshots.length - snapshotsBefore, `round ${round}: snapshots`).toBe(2)
      const overEarlier = dataOf(read(root, `.mesh/${snapshots.at(-1)!.snapshot}`))
      expect(overEarlier.status, `round ${round}: the later write saw the earlier one`).toBe(first.data.to)
      if (first.data.by === 'developer') expect(read(root, `.mesh/${snapshots.at(-1)!.snapshot}`)).toContain(`r${round} #GEN1 finished.`)
    }
    // Every write of the run left its snapshot: one reset, one move and one resolution a round (the reset of round 1 from backlog included).
    expect(snapshotsOf(root)).toHaveLength(3 * ROUNDS)
    console.info(`race: ${ROUNDS} rounds, the move landed first in ${orders.moveFirst}, the resolution first in ${orders.resolutionFirst}; ${retries} clean refusal(s) retried`)

    // The last move is undone by a restore through the daemon, and the restore's own undo brings it back.
    const beforeRestore = read(root, TASK)
    const latest = snapshotsOf(root).at(-1)!
    const restored = await mesh(['daemon', 'restore', TASK, '--json'])
    expect(json(restored)).toMatchObject({via: 'daemon', restored: {ts: latest.ts}, undo: {reason: 'restore'}})
    expect(read(root, TASK)).toBe(read(root, `.mesh/${latest.snapshot}`))
    expect(read(root, TASK)).not.toBe(beforeRestore)
    const undone = await mesh(['daemon', 'restore', TASK, '--before', json(restored).undo.ts, '--json'])
    expect(undone.code).toBe(0)
    expect(read(root, TASK)).toBe(beforeRestore)
  })
})
