import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {DEFAULT_RELAY_URL, RELAY_ENV} from '../../client/cluster/constants.js'
import {invalid} from '../../lib/errors.js'

export default class ClusterPosts extends MeshCommand {
  static override description = `Read the posts of a board, show one post, or delete one.

Posts come newest first, or nearest first with --near. Filters apply to each post's effective props (its own, else its board's, else its cluster's): --near/--km keep posts within a radius, --lang keeps a language (en also matches en-GB), and adults-only posts (age_min ≥ 18) are shown only with --adult. An adults-only board refuses to list without --adult.

Deleting needs the post's delete token (printed once by "mesh cluster post") or the cluster's admin token.`

  static override examples = [
    '<%= config.bin %> cluster posts c_3kT9… rides --token ck_…',
    '<%= config.bin %> cluster posts berlin-agents rides --near 52.52,13.405 --km 10 --lang de',
    '<%= config.bin %> cluster posts berlin-agents rides p_x4… --json',
    '<%= config.bin %> cluster posts berlin-agents rides --delete p_x4… --delete-token dt_…',
  ]

  static override args = {
    cluster: Args.string({description: 'cluster id (c_…), or the slug of a public cluster', required: true}),
    board: Args.string({description: 'board slug or id', required: true}),
    post: Args.string({description: 'post id (p_…): show only this post'}),
  }

  static override flags = {
    relay: Flags.string({description: `relay base URL (default ${DEFAULT_RELAY_URL})`, env: RELAY_ENV}),
    token: Flags.string({description: 'join token (ck_…); needed on a private cluster', env: 'MESH_CLUSTER_TOKEN'}),
    near: Flags.string({description: 'only posts with a location, nearest first: "<lat>,<lon>"'}),
    km: Flags.string({description: 'radius around --near, in km', dependsOn: ['near']}),
    lang: Flags.string({description: 'only posts in this language (BCP 47)'}),
    adult: Flags.boolean({description: 'I am an adult: include adults-only posts and boards', default: false}),
    limit: Flags.integer({description: 'posts per page (1–100, default 50)', min: 1, max: 100}),
    cursor: Flags.string({description: 'next page: the cursor printed by the previous page'}),
    delete: Flags.string({description: 'delete this post (p_…)'}),
    'delete-token': Flags.string({description: "the post's delete token (dt_…) printed when it was pinned", dependsOn: ['delete']}),
    'admin-token': Flags.string({description: "the cluster's admin token (ak_…): deletes any post", env: 'MESH_CLUSTER_ADMIN_TOKEN'}),
  }

  async run() {
    const {args, flags} = await this.parse(ClusterPosts)
    const {createBoardsClient} = await import('../../client/cluster/boards-client.js')
    const format = await import('../../client/cluster/boards-format.js')
    const client = createBoardsClient({relay: flags.relay})

    if (flags.delete !== undefined) {
      if (!flags['delete-token'] && !flags['admin-token']) {
        throw invalid('usage_delete_token', '--delete needs --delete-token (dt_…, printed when the post was pinned) or --admin-token (ak_…)')
      }
      const result = await client.deletePost(args.cluster, args.board, flags.delete, {
        token: flags.token,
        adminToken: flags['delete-token'] ? undefined : flags['admin-token'],
        deleteToken: flags['delete-token'],
      })
      this.log(`Deleted post ${result.post_id}.`)
      return result
    }

    // Reads do not need the admin token, but it opens a private cluster too.
    const credentials = {token: flags.token ?? flags['admin-token']}
    if (args.post !== undefined) {
      const post = await client.getPost(args.cluster, args.board, args.post, {...credentials, adult: flags.adult})
      if (!this.jsonEnabled()) for (const line of format.postBlock(post)) this.log(line)
      return {post}
    }

    const km = flags.km === undefined ? undefined : Number(flags.km)
    if (km !== undefined && !(km > 0)) throw invalid('usage_km', `--km must be a positive number of kilometres, got "${flags.km}"`, {field: 'km'})
    const page = await client.listPosts(
      args.cluster,
      args.board,
      {near: flags.near, km, lang: flags.lang, adult: flags.adult, limit: flags.limit, cursor: flags.cursor},
      credentials,
    )
    if (!this.jsonEnabled()) {
      if (page.count === 0) this.log('No posts match.')
      page.posts.forEach((post, index) => {
        if (index > 0) this.log('')
        for (const line of format.postBlock(post)) this.log(line)
      })
      if (page.next_cursor) this.log(`\nMore: add --cursor ${page.next_cursor}`)
    }
    return page
  }
}
