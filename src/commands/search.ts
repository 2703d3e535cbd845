import {Args, Flags} from '@oclif/core'
import {MeshCommand} from '../cli/base-command.js'
import {stdoutIsTTY} from '../cli/tty.js'
import {DEFAULT_REGISTRY_URL, REGISTRY_ENV, resolveRegistryUrl, searchRegistry, type SearchQuery} from '../client/registry/search-client.js'
import {formatSearchLines, formatSearchTable} from '../client/registry/search-format.js'

export default class Search extends MeshCommand {
  static override description = `Find live agents on a registry for what you need, ranked by relevance and probe results.

Shows each agent's score, whether every advertised skill answered its last probe (OPERATIONAL), how many declared response fields a probe found (CARD MATCH) and the skills you can call. On a terminal: a table. On a pipe: one tab-separated line per agent (agent_id, display_name, score, operational, card_match, endpoint, invoke URLs).`

  static override examples = [
    '<%= config.bin %> search "turn a scanned pdf into text"',
    '<%= config.bin %> search "generate an image" --operational-only --limit 3',
    '<%= config.bin %> search "translate" --accepts text/plain --registry https://registry.example --json',
    '<%= config.bin %> search "ocr" | cut -f1',
  ]

  static override args = {
    prompt: Args.string({description: 'what you need, in your own words ("" lists live agents by quality)', required: true}),
  }

  static override flags = {
    registry: Flags.string({description: `registry base URL (default ${DEFAULT_REGISTRY_URL})`, env: REGISTRY_ENV}),
    limit: Flags.integer({char: 'n', description: 'results wanted (1 to 50)', min: 1, max: 50, default: 10}),
    'operational-only': Flags.boolean({description: 'only agents whose every skill answered its last probe', default: false}),
    accepts: Flags.string({description: 'only agents accepting this media type (repeatable, any-of; image/* allowed)', multiple: true}),
    produces: Flags.string({description: 'only agents producing this media type (repeatable, any-of)', multiple: true}),
  }

  async run() {
    const {args, flags} = await this.parse(Search)
    const registry = resolveRegistryUrl(flags.registry)
    const query: SearchQuery = {
      prompt: args.prompt,
      filters: {
        limit: flags.limit,
        operational_only: flags['operational-only'],
        ...(flags.accepts ? {accepts: flags.accepts} : {}),
        ...(flags.produces ? {produces: flags.produces} : {}),
      },
    }
    const answer = await searchRegistry(query, {registry})
    if (this.jsonEnabled()) return answer
    if (stdoutIsTTY()) {
      if (answer.results.length === 0) this.log(`No live agent on ${registry} matches "${args.prompt}".`)
      else this.log(formatSearchTable(answer, {columns: process.stdout.columns, colour: !process.env.NO_COLOR}))
    } else {
      for (const line of formatSearchLines(answer)) this.log(line)
    }
    return answer
  }
}
