import {afterEach, beforeEach, describe, expect, it} from 'vitest'
import {createBoard, createPost, makeWorld, T0, type TestCluster, type World} from './support.js'

describe('board routes', () => {
  let world: World
  let priv: TestCluster
  let pub: TestCluster
  beforeEach(async () => {
    world = makeWorld()
    priv = await world.addCluster({props: {lang: 'en', where: {lat: 48.85, lon: 2.35, label: 'Paris'}}})
    pub = await world.addCluster({visibility: 'public', name: 'open-room'})
  })
  afterEach(() => world.close())

  describe('POST /v1/clusters/:id/boards', () => {
    it('creates a board with the admin token → 201 with charter, props and effective props', async () => {
      const res = await world
        .http()
        .post(`/v1/clusters/${priv.id}/boards`)
        .set('x-cluster-token', priv.admin)
        .send({slug: 'rides', title: 'Rides', charter: 'No spam. Offers only.', props: {lang: 'fr'}})
      expect(res.status).toBe(201)
      expect(res.body.board).toMatchObject({
        cluster_id: priv.id,
        slug: 'rides',
        title: 'Rides',
        charter: 'No spam. Offers only.',
        props: {lang: 'fr'},
        effective_props: {lang: 'fr', where: {lat: 48.85, lon: 2.35, label: 'Paris'}},
        age_gated: false,
        created_at: new Date(T0).toISOString(),
      })
      expect(res.body.board.board_id).toMatch(/^b_[a-z2-7]{26}$/)
    })

    it('accepts the admin token as Bearer or ?token=, and derives the slug from the title', async () => {
      const bearer = await world.http().post(`/v1/clusters/${priv.id}/boards`).set('authorization', `Bearer ${priv.admin}`).send({title: 'Lost & Found!'})
      expect(bearer.status).toBe(201)
      expect(bearer.body.board.slug).toBe('lost-found')
      expect(bearer.body.board.charter).toBe('')
      const query = await world.http().post(`/v1/clusters/${priv.id}/boards`).query({token: priv.admin}).send({title: 'Café Talk'})
      expect(query.status).toBe(201)
      expect(query.body.board.slug).toBe('cafe-talk')
    })

    it('refuses the ck_ token and no token with 401 admin_token_required', async () => {
      for (const token of [priv.token, undefined]) {
        const req = world.http().post(`/v1/clusters/${pub.id}/boards`)
        if (token) req.set('x-cluster-token', token)
        const res = await req.send({title: 'x'})
        expect(res.status).toBe(401)
        expect(res.body.error.code).toBe('admin_token_required')
      }
      const member = await world.http().post(`/v1/clusters/${priv.id}/boards`).set('x-cluster-token', priv.token).send({title: 'x'})
      expect(member.status).toBe(401)
    })

    it('answers 404 on a private cluster without a token, with a wrong token, or the other cluster’s admin token', async () => {
      for (const token of [undefined, 'ck_wrong', pub.admin]) {
        const req = world.http().post(`/v1/clusters/${priv.id}/boards`)
        if (token) req.set('x-cluster-token', token)
        const res = await req.send({title: 'x'})
        expect(res.status).toBe(404)
        expect(res.body.error.code).toBe('cluster_not_found')
      }
    })

    it('validates the body: 400 with code and field', async () => {
      const cases: Array<[unknown, string, string]> = [
        [{}, 'invalid_body', 'title'],
        [{title: '   '}, 'invalid_body', 'title'],
        [{title: 'x', slug: 'Not Kebab'}, 'invalid_body', 'slug'],
        [{title: 'x', slug: 'b_x'}, 'invalid_body', 'slug'],
        [{title: 'x', extra: 1}, 'invalid_body', 'extra'],
        [{title: 'x', charter: 'é'.repeat(2049)}, 'field_too_long', 'charter'],
        [{title: 'x', charter: 'x'.repeat(4097)}, 'invalid_body', 'charter'],
        [{title: 'x', props: {age_min: -1}}, 'invalid_body', 'props.age_min'],
        [{title: 'x', props: {where: {lat: 91, lon: 0}}}, 'invalid_body', 'props.where.lat'],
        [{title: 'x', props: {where: {lat: 1}}}, 'invalid_body', 'props.where.lon'],
        [{title: 'x', props: {lang: 'english!'}}, 'invalid_body', 'props.lang'],
        [{title: '!!!'}, 'invalid_slug', 'slug'],
      ]
      for (const [body, code, field] of cases) {
        const res = await world.http().post(`/v1/clusters/${priv.id}/boards`).set('x-cluster-token', priv.admin).send(body as object)
        expect(res.status, JSON.stringify(body)).toBe(400)
        expect(res.body.error, JSON.stringify(body)).toMatchObject({code, field})
      }
      const bad = await world.http().post(`/v1/clusters/${priv.id}/boards`).set('x-cluster-token', priv.admin).set('content-type', 'application/json').send('{nope')
      expect(bad.status).toBe(400)
      expect(bad.body.error.code).toBe('invalid_json')
    })

    it('refuses a taken slug with 409 board_slug_taken', async () => {
      await createBoard(world, priv, {slug: 'rides', title: 'Rides'})
      const res = await world.http().post(`/v1/clusters/${priv.id}/boards`).set('x-cluster-token', priv.admin).send({slug: 'rides', title: 'Again'})
      expect(res.status).toBe(409)
      expect(res.body.error).toMatchObject({code: 'board_slug_taken', field: 'slug'})
    })

    it('refuses a board beyond the per-cluster limit with 409 board_limit_reached', async () => {
      const small = makeWorld({limits: {boardsPerCluster: 2}})
      const cluster = await small.addCluster()
      await createBoard(small, cluster, {title: 'one'})
      await createBoard(small, cluster, {title: 'two'})
      const res = await small.http().post(`/v1/clusters/${cluster.id}/boards`).set('x-cluster-token', cluster.admin).send({title: 'three'})
      expect(res.status).toBe(409)
      expect(res.body.error.code).toBe('board_limit_reached')
      await small.close()
    })
  })

  describe('GET /v1/clusters/:id/boards', () => {
    it('lists boards oldest first without charters, with count', async () => {
      await createBoard(world, priv, {slug: 'rides', title: 'Rides', charter: 'rules'})
      world.advance(1000)
      await createBoard(world, priv, {slug: 'adults', title: 'After dark', props: {age_min: 18}})
      const res = await world.http().get(`/v1/clusters/${priv.id}/boards`).set('x-cluster-token', priv.token)
      expect(res.status).toBe(200)
      expect(res.body.count).toBe(2)
      expect(res.body.boards.map((b: {slug: string}) => b.slug)).toEqual(['rides', 'adults'])
      expect(res.body.boards[0]).not.toHaveProperty('charter')
      expect(res.body.boards[1]).toMatchObject({age_gated: true, effective_props: {age_min: 18, lang: 'en'}})
    })

    it('lists an empty cluster as {boards: [], count: 0}; a public cluster needs no token, also by slug', async () => {
      const res = await world.http().get(`/v1/clusters/${pub.id}/boards`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({boards: [], count: 0})
      const bySlug = await world.http().get('/v1/clusters/open-room/boards')
      expect(bySlug.status).toBe(200)
    })

    it('answers 404 for a private cluster without its token, and for an unknown cluster', async () => {
      await createBoard(world, priv, {slug: 'rides', title: 'Rides'})
      for (const [path, token] of [
        [`/v1/clusters/${priv.id}/boards`, undefined],
        [`/v1/clusters/${priv.id}/boards`, pub.token],
        [`/v1/clusters/${priv.id}/boards/rides`, undefined],
        [`/v1/clusters/${priv.id}/boards/rides/posts`, undefined],
        ['/v1/clusters/c_AAAAAAAAAAAAAAAAAAAAAAAA/boards', undefined],
      ] as const) {
        const req = world.http().get(path)
        if (token) req.set('x-cluster-token', token)
        const res = await req
        expect(res.status, path).toBe(404)
        expect(res.body.error.code).toBe('cluster_not_found')
      }
    })

    it('lets the admin token read a private cluster too', async () => {
      const res = await world.http().get(`/v1/clusters/${priv.id}/boards`).set('x-cluster-token', priv.admin)
      expect(res.status).toBe(200)
    })
  })

  describe('GET /v1/clusters/:id/boards/:bid', () => {
    it('reads a board by slug or id, with its charter and inherited props', async () => {
      const board = await createBoard(world, priv, {slug: 'rides', title: 'Rides', charter: 'offers only', props: {age_min: 16}})
      for (const ref of ['rides', board.board_id]) {
        const res = await world.http().get(`/v1/clusters/${priv.id}/boards/${ref}`).set('x-cluster-token', priv.token)
        expect(res.status).toBe(200)
        expect(res.body.board).toMatchObject({
          board_id: board.board_id,
          charter: 'offers only',
          props: {age_min: 16},
          effective_props: {age_min: 16, lang: 'en', where: {lat: 48.85, lon: 2.35, label: 'Paris'}},
          age_gated: false,
        })
      }
    })

    it('answers 404 board_not_found for an unknown board and for a board of another cluster', async () => {
      const other = await createBoard(world, pub, {slug: 'elsewhere', title: 'Elsewhere'})
      for (const ref of ['nope', other.board_id, 'elsewhere']) {
        const res = await world.http().get(`/v1/clusters/${priv.id}/boards/${ref}`).set('x-cluster-token', priv.token)
        expect(res.status).toBe(404)
        expect(res.body.error.code).toBe('board_not_found')
      }
    })
  })

  describe('DELETE /v1/clusters/:id/boards/:bid', () => {
    it('deletes a board and its posts with the admin token → 200 {ok, board_id}', async () => {
      const board = await createBoard(world, priv, {slug: 'rides', title: 'Rides'})
      const {post} = await createPost(world, priv, 'rides', {})
      const res = await world.http().delete(`/v1/clusters/${priv.id}/boards/rides`).set('x-cluster-token', priv.admin)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ok: true, board_id: board.board_id})
      const gone = await world.http().get(`/v1/clusters/${priv.id}/boards/rides`).set('x-cluster-token', priv.token)
      expect(gone.status).toBe(404)
      // A new board with the same slug starts empty: the old posts went with the old board.
      await createBoard(world, priv, {slug: 'rides', title: 'Rides again'})
      const posts = await world.http().get(`/v1/clusters/${priv.id}/boards/rides/posts`).set('x-cluster-token', priv.token)
      expect(posts.body.posts).toEqual([])
      expect(await world.part.resolveTags(priv.id, `#${post.post_id}`)).toEqual({})
    })

    it('refuses the ck_ token with 401 and answers 404 for an unknown board', async () => {
      await createBoard(world, priv, {slug: 'rides', title: 'Rides'})
      const member = await world.http().delete(`/v1/clusters/${priv.id}/boards/rides`).set('x-cluster-token', priv.token)
      expect(member.status).toBe(401)
      expect(member.body.error.code).toBe('admin_token_required')
      const unknown = await world.http().delete(`/v1/clusters/${priv.id}/boards/nope`).set('x-cluster-token', priv.admin)
      expect(unknown.status).toBe(404)
      const hidden = await world.http().delete(`/v1/clusters/${priv.id}/boards/rides`)
      expect(hidden.status).toBe(404)
      expect(hidden.body.error.code).toBe('cluster_not_found')
    })
  })

  it('answers a wrong method on a board path with a JSON 405, and leaves other paths to the next middleware', async () => {
    const res = await world.http().put(`/v1/clusters/${priv.id}/boards`).send({})
    expect(res.status).toBe(405)
    expect(res.body.error.code).toBe('method_not_allowed')
    const other = await world.http().get('/v1/elsewhere')
    expect(other.status).toBe(404)
    expect(other.body.error.code).toBe('not_found')
  })

  it('forgets boards and posts of a deleted cluster', async () => {
    await createBoard(world, priv, {slug: 'rides', title: 'Rides'})
    const {post} = await createPost(world, priv, 'rides', {})
    await world.part.onClusterDeleted(priv.id)
    expect(await world.boardStore.listBoards(priv.id)).toEqual([])
    expect(await world.part.resolveTags(priv.id, `#rides #${post.post_id}`)).toEqual({})
  })
})
