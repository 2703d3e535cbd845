import {createHash} from 'node:crypto'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {createBoard, createPost, DAY, makeWorld, T0, type TestCluster, type World} from './support.js'

describe('post routes', () => {
  let world: World
  let priv: TestCluster
  let pub: TestCluster
  const posts = (cluster: TestCluster, board = 'rides') => `/v1/clusters/${cluster.id}/boards/${board}/posts`
  beforeEach(async () => {
    world = makeWorld()
    priv = await world.addCluster({props: {lang: 'en', where: {lat: 48.8566, lon: 2.3522, label: 'Paris'}}})
    pub = await world.addCluster({visibility: 'public'})
    await createBoard(world, priv, {slug: 'rides', title: 'Rides', props: {lang: 'en-GB'}})
    await createBoard(world, pub, {slug: 'rides', title: 'Rides'})
  })
  afterEach(() => world.close())

  describe('POST …/posts?agent=', () => {
    it('pins a post → 201 {post, delete_token} with inherited props and an expiry from its ttl', async () => {
      const res = await world
        .http()
        .post(posts(priv))
        .query({agent: 'ann'})
        .set('x-cluster-token', priv.token)
        .send({title: ' Lift to Lyon ', body: 'Leaving at 9.', ttl: '7d', props: {where: {lat: 45.764, lon: 4.8357, label: 'Lyon'}}})
      expect(res.status).toBe(201)
      expect(res.body.delete_token).toMatch(/^dt_[a-z2-7]{26}$/)
      expect(res.body.post).toEqual({
        post_id: expect.stringMatching(/^p_[a-z2-7]{26}$/),
        board_id: expect.stringMatching(/^b_/),
        board: 'rides',
        cluster_id: priv.id,
        author: 'ann',
        title: 'Lift to Lyon',
        body: 'Leaving at 9.',
        ttl: '7d',
        props: {where: {lat: 45.764, lon: 4.8357, label: 'Lyon'}},
        effective_props: {lang: 'en-GB', where: {lat: 45.764, lon: 4.8357, label: 'Lyon'}},
        created_at: new Date(T0).toISOString(),
        expires_at: new Date(T0 + 7 * DAY).toISOString(),
      })
    })

    it('stores the delete token only as its SHA-256', async () => {
      // Posts of a persisted cluster land in the world's board store, where the record can be read back.
      const cluster = await world.addCluster({persist: true})
      await createBoard(world, cluster, {slug: 'b', title: 'B'})
      const {post, delete_token} = await createPost(world, cluster, 'b', {})
      const record = await world.boardStore.getPost(cluster.id, post.post_id, world.now)
      expect(record!.deleteTokenHash).toBe(createHash('sha256').update(delete_token).digest('hex'))
      expect(JSON.stringify(record)).not.toContain(delete_token)
    })

    it('gives every ttl its lifetime and `forever` no expiry', async () => {
      const expected: Record<string, number | null> = {'24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY, '1y': 365 * DAY, forever: null}
      for (const [ttl, lifetime] of Object.entries(expected)) {
        const {post} = await createPost(world, pub, 'rides', {ttl})
        expect(post.expires_at).toBe(lifetime === null ? null : new Date(T0 + lifetime).toISOString())
      }
    })

    it('validates query and body: 400 with code and field', async () => {
      const cases: Array<[Record<string, string>, unknown, string, string]> = [
        [{}, {title: 't', body: 'b', ttl: '7d'}, 'invalid_query', 'agent'],
        [{agent: ''}, {title: 't', body: 'b', ttl: '7d'}, 'invalid_query', 'agent'],
        [{agent: 'a\u0007b'}, {title: 't', body: 'b', ttl: '7d'}, 'invalid_query', 'agent'],
        [{agent: 'x'.repeat(129)}, {title: 't', body: 'b', ttl: '7d'}, 'invalid_query', 'agent'],
        [{agent: 'ann'}, {title: 't', body: 'b', ttl: '2d'}, 'invalid_body', 'ttl'],
        [{agent: 'ann'}, {title: 't', body: 'b'}, 'invalid_body', 'ttl'],
        [{agent: 'ann'}, {body: 'b', ttl: '7d'}, 'invalid_body', 'title'],
        [{agent: 'ann'}, {title: 'x'.repeat(201), body: 'b', ttl: '7d'}, 'invalid_body', 'title'],
        [{agent: 'ann'}, {title: 't', ttl: '7d'}, 'invalid_body', 'body'],
        [{agent: 'ann'}, {title: 't', body: 5, ttl: '7d'}, 'invalid_body', 'body'],
        [{agent: 'ann'}, {title: 't', body: 'é'.repeat(8193), ttl: '7d'}, 'field_too_long', 'body'],
        [{agent: 'ann'}, {title: 't', body: 'b', ttl: '7d', props: {where: {lat: 0, lon: 181}}}, 'invalid_body', 'props.where.lon'],
        [{agent: 'ann'}, {title: 't', body: 'b', ttl: '7d', props: {age_min: 1.5}}, 'invalid_body', 'props.age_min'],
        [{agent: 'ann'}, {title: 't', body: 'b', ttl: '7d', author: 'me'}, 'invalid_body', 'author'],
      ]
      for (const [query, body, code, field] of cases) {
        const res = await world.http().post(posts(pub)).query(query).send(body as object)
        expect(res.status, JSON.stringify([query, body])).toBe(400)
        expect(res.body.error, JSON.stringify([query, body])).toMatchObject({code, field})
      }
      const control = await world.http().post(posts(pub)).query({agent: 'a\u0007b'}).send({title: 't', body: 'b', ttl: '7d'})
      expect(control.body.error.message).toBe('agent (the author handle) must be 1 to 128 characters without control characters')
      const repeated = await world.http().post(`${posts(pub)}?agent=a&agent=b`).send({title: 't', body: 'b', ttl: '7d'})
      expect(repeated.status).toBe(400)
      expect(repeated.body.error.field).toBe('agent')
    })

    it('accepts a full 16 KB body however it is escaped, and answers 413 beyond the request cap', async () => {
      const escaped = '\u0001'.repeat(16 * 1024)
      const full = await world.http().post(posts(pub)).query({agent: 'ann'}).send({title: 't', body: escaped, ttl: '7d'})
      expect(full.status).toBe(201)
      expect(full.body.post.body).toBe(escaped)
      const huge = await world.http().post(posts(pub)).query({agent: 'ann'}).send({title: 't', body: 'x'.repeat(140 * 1024), ttl: '7d'})
      expect(huge.status).toBe(413)
      expect(huge.body.error.code).toBe('body_too_large')
    })

    it('answers 404 for an unknown board and for a private cluster without its token', async () => {
      const unknown = await world.http().post(posts(pub, 'nope')).query({agent: 'ann'}).send({title: 't', body: 'b', ttl: '7d'})
      expect(unknown.status).toBe(404)
      expect(unknown.body.error.code).toBe('board_not_found')
      const hidden = await world.http().post(posts(priv)).query({agent: 'ann'}).send({title: 't', body: 'b', ttl: '7d'})
      expect(hidden.status).toBe(404)
      expect(hidden.body.error.code).toBe('cluster_not_found')
    })

    it('rate-limits post creation per handle → 429 with Retry-After', async () => {
      const limited = makeWorld({limits: {postsPerAgent: {limit: 2, windowMs: 60_000}}})
      const cluster = await limited.addCluster({visibility: 'public'})
      await createBoard(limited, cluster, {slug: 'b', title: 'B'})
      await createPost(limited, cluster, 'b', {}, 'spammer')
      await createPost(limited, cluster, 'b', {}, 'spammer')
      const res = await limited.http().post(posts(cluster, 'b')).query({agent: 'spammer'}).send({title: 't', body: 'b', ttl: '7d'})
      expect(res.status).toBe(429)
      expect(res.body.error.code).toBe('rate_limited')
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
      await createPost(limited, cluster, 'b', {}, 'someone-else')
      limited.advance(60_000)
      await createPost(limited, cluster, 'b', {}, 'spammer')
      await limited.close()
    })

    it('rate-limits post creation per client IP across handles → 429', async () => {
      const limited = makeWorld({limits: {postsPerIp: {limit: 2, windowMs: 60_000}}, proxy: true})
      const cluster = await limited.addCluster({visibility: 'public'})
      await createBoard(limited, cluster, {slug: 'b', title: 'B'})
      const send = (agent: string, ip: string) =>
        limited.http().post(posts(cluster, 'b')).query({agent}).set('x-forwarded-for', ip).send({title: 't', body: 'b', ttl: '7d'})
      expect((await send('a', '10.0.0.1')).status).toBe(201)
      expect((await send('b', '10.0.0.1')).status).toBe(201)
      expect((await send('c', '10.0.0.1')).status).toBe(429)
      expect((await send('c', '10.0.0.2')).status).toBe(201)
      await limited.close()
    })
  })

  describe('GET …/posts/:pid', () => {
    it('reads one live post; 404 for unknown, expired, or a post of another board', async () => {
      await createBoard(world, priv, {slug: 'other', title: 'Other'})
      const {post} = await createPost(world, priv, 'rides', {ttl: '24h'})
      const ok = await world.http().get(`${posts(priv)}/${post.post_id}`).set('x-cluster-token', priv.token)
      expect(ok.status).toBe(200)
      expect(ok.body.post).toEqual(post)
      const wrongBoard = await world.http().get(`${posts(priv, 'other')}/${post.post_id}`).set('x-cluster-token', priv.token)
      expect(wrongBoard.status).toBe(404)
      expect(wrongBoard.body.error.code).toBe('post_not_found')
      const unknown = await world.http().get(`${posts(priv)}/p_aaaaaaaaaaaaaaaaaaaaaaaaaa`).set('x-cluster-token', priv.token)
      expect(unknown.status).toBe(404)
      world.advance(DAY)
      const expired = await world.http().get(`${posts(priv)}/${post.post_id}`).set('x-cluster-token', priv.token)
      expect(expired.status).toBe(404)
      const hidden = await world.http().get(`${posts(priv)}/${post.post_id}`)
      expect(hidden.status).toBe(404)
      expect(hidden.body.error.code).toBe('cluster_not_found')
    })
  })

  describe('DELETE …/posts/:pid', () => {
    it('deletes with the delete token in x-delete-token → 200 {ok, post_id}; the post is gone', async () => {
      const {post, delete_token} = await createPost(world, pub, 'rides', {})
      const res = await world.http().delete(`${posts(pub)}/${post.post_id}`).set('x-delete-token', delete_token)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ok: true, post_id: post.post_id})
      const again = await world.http().delete(`${posts(pub)}/${post.post_id}`).set('x-delete-token', delete_token)
      expect(again.status).toBe(404)
      expect((await world.http().get(`${posts(pub)}/${post.post_id}`)).status).toBe(404)
    })

    it('deletes with the delete token as ?delete_token= and with the admin token', async () => {
      const first = await createPost(world, priv, 'rides', {})
      const byQuery = await world.http().delete(`${posts(priv)}/${first.post.post_id}`).query({delete_token: first.delete_token}).set('x-cluster-token', priv.token)
      expect(byQuery.status).toBe(200)
      const second = await createPost(world, priv, 'rides', {})
      const byAdmin = await world.http().delete(`${posts(priv)}/${second.post.post_id}`).set('authorization', `Bearer ${priv.admin}`)
      expect(byAdmin.status).toBe(200)
    })

    it('refuses missing, wrong and wrong-kind tokens with 401', async () => {
      const {post, delete_token} = await createPost(world, priv, 'rides', {})
      const other = await createPost(world, priv, 'rides', {})
      const attempt = (headers: Record<string, string>) => {
        const req = world.http().delete(`${posts(priv)}/${post.post_id}`)
        for (const [k, v] of Object.entries(headers)) req.set(k, v)
        return req
      }
      const missing = await attempt({'x-cluster-token': priv.token})
      expect(missing.status).toBe(401)
      expect(missing.body.error.code).toBe('delete_token_required')
      for (const wrong of [other.delete_token, 'dt_nope', priv.admin, priv.token]) {
        const res = await attempt({'x-cluster-token': priv.token, 'x-delete-token': wrong})
        expect(res.status, wrong).toBe(401)
        expect(res.body.error.code).toBe('invalid_delete_token')
      }
      // The delete token where the cluster token goes is no cluster token: a private cluster hides itself.
      expect((await attempt({'x-cluster-token': delete_token})).status).toBe(404)
      // On a public cluster the same mistake is a plain 401.
      const pubPost = await createPost(world, pub, 'rides', {})
      const misplaced = await world.http().delete(`${posts(pub)}/${pubPost.post.post_id}`).set('x-cluster-token', pubPost.delete_token)
      expect(misplaced.status).toBe(401)
      // Still there after every refusal.
      expect((await world.http().get(`${posts(priv)}/${post.post_id}`).set('x-cluster-token', priv.token)).status).toBe(200)
    })

    it('needs the ck_ token besides the delete token on a private cluster (404 without it)', async () => {
      const {post, delete_token} = await createPost(world, priv, 'rides', {})
      const res = await world.http().delete(`${posts(priv)}/${post.post_id}`).set('x-delete-token', delete_token)
      expect(res.status).toBe(404)
      expect(res.body.error.code).toBe('cluster_not_found')
    })
  })
})
