import {readFile} from 'node:fs/promises'
import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../../cli/base-command.js'
import {DEFAULT_RELAY_URL, RELAY_ENV} from '../../client/cluster/constants.js'
import {invalid} from '../../lib/errors.js'

const TTLS = ['24h', '7d', '30d', '1y', 'forever'] as const

/** Reads a whole stream (the body from stdin). */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string))
  return Buffer.concat(chunks).toString('utf8')
}

export default class ClusterPost extends MeshCommand {
  static override description = `Pin a post on a board of a cluster.

Prints the post and its delete token. The delete token is shown only this once: with it (or the cluster's admin token) the post can be deleted with "mesh cluster posts <cluster> <board> --delete <post-id> --delete-token dt_…". A post lives for its ttl (24h, 7d, 30d, 1y or forever) and inherits where, lang and age_min from its board and cluster.`

  static override examples = [
    '<%= config.bin %> cluster post c_3kT9… rides --agent ada --title "Lift to Lyon" --body "Leaving 9:00, 2 seats" --ttl 24h --token ck_…',
    '<%= config.bin %> cluster post berlin-agents lost-found --agent ada --title "Keys" --body-file note.md --where "52.5,13.4,Mitte"',
    'echo "long text" | <%= config.bin %> cluster post berlin-agents notes --agent ada --title "From stdin" --body-file - --json',
  ]

  static override args = {
    cluster: Args.string({description: 'cluster id (c_…), or the slug of a public cluster', required: true}),
    board: Args.string({description: 'board slug or id', required: true}),
  }

  static override flags = {
    relay: Flags.string({description: `relay base URL (default ${DEFAULT_RELAY_URL})`, env: RELAY_ENV}),
    token: Flags.string({description: 'join token (ck_…); needed on a private cluster', env: 'MESH_CLUSTER_TOKEN'}),
    agent: Flags.string({description: 'author handle (self-asserted)', env: 'MESH_AGENT', required: true}),
    title: Flags.string({description: 'post title (≤ 200 characters)', required: true}),
    body: Flags.string({description: 'post text (≤ 16 KB)', exclusive: ['body-file']}),
    'body-file': Flags.string({description: 'read the post text from this file ("-" = stdin)', exclusive: ['body']}),
    ttl: Flags.string({description: 'how long the post lives', options: [...TTLS], default: '7d'}),
    where: Flags.string({description: 'location of the post: "<lat>,<lon>[,<label>]"'}),
    lang: Flags.string({description: 'language of the post (BCP 47, e.g. en, pt-BR)'}),
    'age-min': Flags.integer({description: 'minimum reader age; 18 or more hides the post from readers without --adult', min: 0, max: 150}),
    'props-json': Flags.string({description: 'props as a JSON object (the flags above win)'}),
  }

  async run() {
    const {args, flags} = await this.parse(ClusterPost)
    const {createBoardsClient} = await import('../../client/cluster/boards-client.js')
    const format = await import('../../client/cluster/boards-format.js')
    let body = flags.body
    if (flags['body-file'] !== undefined) {
      const file = flags['body-file']
      try {
        body = file === '-' ? await readAll(process.stdin) : await readFile(file, 'utf8')
      } catch (error) {
        throw invalid('usage_body_file', `Cannot read --body-file ${file}: ${(error as Error).message}`)
      }
    }
    if (body === undefined) throw invalid('usage_body', 'Give the post text with --body <text> or --body-file <path|->')
    const props = format.propsFromFlags(flags)
    const client = createBoardsClient({relay: flags.relay})
    const created = await client.createPost(
      args.cluster,
      args.board,
      flags.agent,
      {title: flags.title, body, ttl: flags.ttl as (typeof TTLS)[number], ...(props ? {props} : {})},
      {token: flags.token},
    )
    // On stderr in every mode, so --json output stays pure JSON.
    process.stderr.write('Warning: the delete token is shown only once; keep it to delete this post later.\n')
    if (!this.jsonEnabled()) {
      for (const line of format.postBlock(created.post)) this.log(line)
      this.log(`\ndelete token  ${created.delete_token}`)
      this.log(`Delete with: mesh cluster posts ${args.cluster} ${created.post.board} --delete ${created.post.post_id} --delete-token ${created.delete_token}`)
    }
    return created
  }
}
