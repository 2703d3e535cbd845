/**
 * `mesh cluster boards|post|posts` end to end: the built binary (dist/, fresh
 * from `npm test`'s build) against a boards part listening on a real port.
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {listen, type Listening} from '../../../src/http/listen.js'
import {makeWorld, type TestCluster, type World} from '../../cluster/boards/support.js'
import {json, runCli} from '../../support/cli.js'

describe('mesh cluster boards / post / posts', () => {
  let world: World
  let server: Listening
  let cluster: TestCluster
  let open: TestCluster
  const dir = mkdtempSync(join(tmpdir(), 'mesh-boards-cli-'))

  /** Runs the CLI with its own HOME and MESH_RELAY. */
  const mesh = (args: string[], options: {stdin?: string; relay?: string} = {}) => runCli(args, {env: {HOME: dir, MESH_RELAY: options.relay ?? server.url}, input: options.stdin})

  beforeAll(async () => {
    world = makeWorld()
    server = await listen(world.handler, 0)
    cluster = await world.addCluster({props: {lang: 'de', where: {lat: 52.52, lon: 13.405, label: 'Berlin'}}})
    open = await world.addCluster({visibility: 'public', name: 'open-room'})
  })
  afterAll(async () => {
    await server.close()
    await world.close()
    rmSync(dir, {recursive: true, force: true})
  })

  it('creates, lists and shows boards', async () => {
    const created = await mesh(['cluster', 'boards', cluster.id, '--create', 'rides', '--title', 'Rides', '--charter', 'Offers only', '--admin-token', cluster.admin, '--json'])
    expect(created.code, created.stderr).toBe(0)
    expect(json(created).board).toMatchObject({slug: 'rides', title: 'Rides', charter: 'Offers only', effective_props: {lang: 'de'}})

    const human = await mesh(['cluster', 'boards', cluster.id, '--create', 'night', '--age-min', '18', '--where', '52.5,13.4,Mitte, Berlin', '--admin-token', cluster.admin])
    expect(human.code, human.stderr).toBe(0)
    expect(human.stdout).toContain('Created board night')

    const listed = await mesh(['cluster', 'boards', cluster.id, '--token', cluster.token])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toMatch(/^SLUG\s+TITLE/m)
    expect(listed.stdout).toContain('rides')
    expect(listed.stdout).toContain('Mitte, Berlin (52.5, 13.4)')
    expect(listed.stdout).toContain('(adults only)')

    const shown = await mesh(['cluster', 'boards', cluster.id, 'rides', '--token', cluster.token, '--json'])
    expect(json(shown).board.charter).toBe('Offers only')
    const shownHuman = await mesh(['cluster', 'boards', cluster.id, 'rides', '--token', cluster.token])
    expect(shownHuman.stdout).toContain('charter\n  Offers only')
  })

  it('pins a post, printing the delete token once, and reads it back with filters', async () => {
    const pinned = await mesh(['cluster', 'post', cluster.id, 'rides', '--agent', 'ada', '--title', 'Lift to Potsdam', '--body', '2 seats', '--ttl', '24h', '--where', '52.39,13.06,Potsdam', '--token', cluster.token, '--json'])
    expect(pinned.code, pinned.stderr).toBe(0)
    const {post, delete_token} = json(pinned)
    expect(post).toMatchObject({author: 'ada', title: 'Lift to Potsdam', ttl: '24h', effective_props: {lang: 'de', where: {label: 'Potsdam'}}})
    expect(delete_token).toMatch(/^dt_/)
    expect(pinned.stderr).toContain('shown only once')

    const human = await mesh(['cluster', 'post', cluster.id, 'rides', '--agent', 'bob', '--title', 'From stdin', '--body-file', '-', '--lang', 'en', '--token', cluster.token], {stdin: 'line one\nline two'})
    expect(human.code, human.stderr).toBe(0)
    expect(human.stdout).toMatch(/delete token {2}dt_[a-z2-7]{26}/)
    expect(human.stdout).toContain('  line two')

    const near = await mesh(['cluster', 'posts', cluster.id, 'rides', '--near', '52.40,13.07', '--km', '10', '--token', cluster.token, '--json'])
    expect(near.code, near.stderr).toBe(0)
    expect(json(near).posts.map((p: {title: string}) => p.title)).toEqual(['Lift to Potsdam'])
    expect(json(near).posts[0].distance_km).toBeLessThan(2)

    const english = await mesh(['cluster', 'posts', cluster.id, 'rides', '--lang', 'en', '--token', cluster.token])
    expect(english.stdout).toContain('From stdin')
    expect(english.stdout).not.toContain('Potsdam')

    const one = await mesh(['cluster', 'posts', cluster.id, 'rides', post.post_id, '--token', cluster.token, '--json'])
    expect(json(one).post.post_id).toBe(post.post_id)

    const deleted = await mesh(['cluster', 'posts', cluster.id, 'rides', '--delete', post.post_id, '--delete-token', delete_token, '--token', cluster.token, '--json'])
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(json(deleted)).toEqual({ok: true, post_id: post.post_id})
  })

  it('pages through posts with --limit and --cursor', async () => {
    await mesh(['cluster', 'boards', open.id, '--create', 'paged', '--admin-token', open.admin])
    for (const title of ['a', 'b', 'c']) {
      world.advance(1000)
      expect((await mesh(['cluster', 'post', 'open-room', 'paged', '--agent', 'ada', '--title', title, '--body', ''])).code).toBe(0)
    }
    const first = await mesh(['cluster', 'posts', 'open-room', 'paged', '--limit', '2'])
    expect(first.stdout).toMatch(/More: add --cursor (\S+)/)
    const cursor = /More: add --cursor (\S+)/.exec(first.stdout)![1]
    const second = await mesh(['cluster', 'posts', 'open-room', 'paged', '--limit', '2', '--cursor', cursor, '--json'])
    expect(json(second).posts.map((p: {title: string}) => p.title)).toEqual(['a'])
  })

  it('reports refusals as one line with exit 1, and as a JSON error under --json', async () => {
    const gated = await mesh(['cluster', 'posts', cluster.id, 'night', '--token', cluster.token])
    expect(gated.code).toBe(1)
    expect(gated.stderr).toContain('adult')
    expect(gated.stderr).not.toMatch(/at .*\.js:\d+/)
    const gatedJson = await mesh(['cluster', 'posts', cluster.id, 'night', '--token', cluster.token, '--json'])
    expect(gatedJson.code).toBe(1)
    expect(json(gatedJson).error.code).toBe('age_gated')
    expect((await mesh(['cluster', 'posts', cluster.id, 'night', '--token', cluster.token, '--adult'])).code).toBe(0)

    const hidden = await mesh(['cluster', 'boards', cluster.id, '--json'])
    expect(hidden.code).toBe(1)
    expect(json(hidden).error.code).toBe('cluster_not_found')

    const badTtl = await mesh(['cluster', 'post', open.id, 'paged', '--agent', 'a', '--title', 't', '--body', 'b', '--ttl', '2d'])
    expect(badTtl.code).toBe(2)

    const tooMuch = await mesh(['cluster', 'post', open.id, 'paged', '--agent', 'a', '--title', 'x'.repeat(201), '--body', 'b', '--json'])
    expect(tooMuch.code).toBe(1)
    expect(json(tooMuch).error).toMatchObject({code: 'invalid_body', field: 'title'})

    const unreachable = await mesh(['cluster', 'boards', open.id], {relay: 'http://127.0.0.1:9'})
    expect(unreachable.code).toBe(1)
    expect(unreachable.stderr).toContain('Cannot reach the relay')
  })

  it('refuses bad usage with exit 2 before calling the relay', async () => {
    const cases: Array<[string[], string]> = [
      [['cluster', 'post', open.id, 'paged', '--agent', 'a', '--title', 't'], '--body'],
      [['cluster', 'post', open.id, 'paged', '--agent', 'a', '--title', 't', '--body', 'b', '--where', 'somewhere'], '--where'],
      [['cluster', 'boards', open.id, '--create', 'x'], '--admin-token'],
      [['cluster', 'boards', open.id, '--delete', 'x', '--admin-token', open.token], 'join token'],
      [['cluster', 'posts', open.id, 'paged', '--delete', 'p_x'], '--delete-token'],
    ]
    for (const [args, hint] of cases) {
      const run = await mesh(args)
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stderr, args.join(' ')).toContain(hint)
    }
  })

  it('deletes a board with the admin token', async () => {
    const deleted = await mesh(['cluster', 'boards', open.id, '--delete', 'paged', '--admin-token', open.admin])
    expect(deleted.code, deleted.stderr).toBe(0)
    expect(deleted.stdout).toContain('Deleted board paged')
    const gone = await mesh(['cluster', 'posts', open.id, 'paged', '--json'])
    expect(json(gone).error.code).toBe('board_not_found')
  })
})
