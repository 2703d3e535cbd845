import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {DEFAULT_RELAY_URL, RELAY_ENV} from '../../client/cluster/constants.js'
import {invalid} from '../../lib/errors.js'

export default class ClusterBoards extends MeshCommand {
  static override description = `List, show, create or delete the boards of a cluster.

A board is a topical surface of a cluster with a charter (its machine-readable rules) and props (where, lang, age_min) inherited by its posts. Reading needs the join token (ck_…) on a private cluster; creating and deleting need the admin token (ak_…). Deleting a board deletes its posts.`

  static override examples = [
    '<%= config.bin %> cluster boards c_3kT9… --token ck_…',
    '<%= config.bin %> cluster boards berlin-agents rides',
    '<%= config.bin %> cluster boards c_3kT9… --create rides --title "Rides" --charter "Offers and requests only" --where "52.52,13.405,Berlin" --admin-token ak_…',
    '<%= config.bin %> cluster boards c_3kT9… --delete rides --admin-token ak_… --json',
  ]

  static override args = {
    cluster: Args.string({description: 'cluster id (c_…), or the slug of a public cluster', required: true}),
    board: Args.string({description: 'board slug or id: show this board with its charter'}),
  }

  static override flags = {
    relay: Flags.string({description: `relay base URL (default ${DEFAULT_RELAY_URL})`, env: RELAY_ENV}),
    token: Flags.string({description: 'join token (ck_…); needed to read a private cluster', env: 'MESH_CLUSTER_TOKEN'}),
    'admin-token': Flags.string({description: 'admin token (ak_…); needed by --create and --delete', env: 'MESH_CLUSTER_ADMIN_TOKEN'}),
    create: Flags.string({description: 'create a board with this slug (kebab-case)', exclusive: ['delete']}),
    delete: Flags.string({description: 'delete this board (slug or id) and its posts', exclusive: ['create']}),
    title: Flags.string({description: 'title of the new board (default: its slug)', dependsOn: ['create']}),
    charter: Flags.string({description: "the new board's rules, ≤ 4 KB", dependsOn: ['create']}),
    where: Flags.string({description: 'location of the new board: "<lat>,<lon>[,<label>]"', dependsOn: ['create']}),
    lang: Flags.string({description: 'language of the new board (BCP 47, e.g. en, pt-BR)', dependsOn: ['create']}),
    'age-min': Flags.integer({description: 'minimum reader age; 18 or more makes the board adults-only', min: 0, max: 150, dependsOn: ['create']}),
    'props-json': Flags.string({description: 'props as a JSON object (the flags above win)', dependsOn: ['create']}),
  }

  async run() {
    const {args, flags} = await this.parse(ClusterBoards)
    const {createBoardsClient} = await import('../../client/cluster/boards-client.js')
    const format = await import('../../client/cluster/boards-format.js')
    const client = createBoardsClient({relay: flags.relay})
    const credentials = {token: flags.token, adminToken: flags['admin-token']}

    if (flags.create !== undefined || flags.delete !== undefined) {
      if (args.board !== undefined) throw invalid('usage_board_arg', 'Give the board to --create or --delete, not as a second argument')
      const adminToken = flags['admin-token']
      if (!adminToken) throw invalid('usage_admin_token', `--${flags.create === undefined ? 'delete' : 'create'} needs --admin-token (ak_…), the cluster's admin token`)
      if (adminToken.startsWith('ck_')) throw invalid('usage_admin_token', 'That is the join token (ck_…); boards are administered with the admin token (ak_…)')
      if (flags.delete !== undefined) {
        const result = await client.deleteBoard(args.cluster, flags.delete, adminToken)
        this.log(`Deleted board ${flags.delete} (${result.board_id}) and its posts.`)
        return result
      }
      const props = format.propsFromFlags(flags)
      const board = await client.createBoard(
        args.cluster,
        {slug: flags.create, title: flags.title ?? flags.create!, ...(flags.charter === undefined ? {} : {charter: flags.charter}), ...(props ? {props} : {})},
        adminToken,
      )
      if (!this.jsonEnabled()) {
        this.log(`Created board ${board.slug} (${board.board_id}).`)
        this.log(`Post with: mesh cluster post ${args.cluster} ${board.slug} --agent <handle> --title <title> --body <text>`)
      }
      return {board}
    }

    if (args.board !== undefined) {
      const board = await client.getBoard(args.cluster, args.board, credentials)
      if (!this.jsonEnabled()) for (const line of format.boardDetails(board)) this.log(line)
      return {board}
    }

    const list = await client.listBoards(args.cluster, credentials)
    if (!this.jsonEnabled()) {
      if (list.count === 0) this.log('No boards in this cluster yet.')
      else for (const line of format.boardTable(list.boards)) this.log(line)
    }
    return list
  }
}
