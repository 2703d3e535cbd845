/**
 * Serves a loaded agent folder on a port: createAgent with the folder's
 * card and handlers, createPayments when a skill is paid, one HTTP server
 * (src/http/host.ts serve, the registry's host). The card is served with
 * `url` = the public URL (DECISIONS: Public address), so callers and the
 * registry's prober reach the skills where they really are.
 */
import {serve, type HostedServer} from '../../http/host.js'
import {MeshError} from '../../lib/errors.js'
import type {Logger} from '../../lib/log.js'
import {isPaid, skillPricing, type PublicCard} from '../../protocol/agent-card.js'
import {createAgent, type Agent} from '../kit/create-agent.js'
import {createPayments} from '../payments/gate.js'
import {AGENT_NONCES_MIGRATIONS, createSqliteNonceStore} from '../store/mesh-sig-nonces.js'
import {migrateSqlite} from '../../store/sqlite.js'
import {openStorage} from '../../store/open.js'
import type {PaymentGate} from '../payments/types.js'
import type {AgentFolder} from './load.js'
import {publicAddress} from '../../http/listen.js'

/** Pay-per-call settings (`--wallet`, `--network`, `--rpc-url`, `--free-per-day`). */
export interface FolderPayments {
  /** The agent wallet's public address; its private key is never asked for. */
  wallet: string
  network: string
  rpcUrl: string
  /** Free calls per caller per day; default the gate's (10). */
  freePerDay?: number
}

export interface ServeFolderOptions {
  folder: AgentFolder
  /** 0 picks a free port. */
  port: number
  host: string
  /** Without trailing slash; default the listening address. */
  publicUrl?: string
  /** The agent's own SQLite (`<dataDir>/mesh.db`): used Mesh-Sig nonces, and the pay-per-call state when a skill is paid. */
  dataDir: string
  /** Required when a skill is paid; ignored otherwise. */
  payments?: FolderPayments
  /** The id `/health` reports; default the card's name in kebab-case. */
  agentId?: string
  proxy?: boolean
  logger: Logger
}

export interface ServedFolder {
  agent: Agent
  /** The listening address, e.g. http://127.0.0.1:8090. */
  url: string
  port: number
  /** What the card's `url` says (the public URL). */
  publicUrl: string
  /** The PublicCard as served. */
  card: PublicCard
  /** The card's `url` in agent.json when it was not the public URL (it is served as the public URL). */
  replacedUrl: string | null
  /** Ids of the paid skills (empty for a free agent). */
  paidSkills: string[]
  /** Closes the server, then the agent (running handlers aborted), its payment gate and its database. */
  stop(): Promise<void>
}

/** Ids of the skills a call must pay for (DECISIONS: Paid calls). */
export function paidSkillIds(card: PublicCard): string[] {
  return card.skills.filter((skill) => isPaid(skillPricing(skill, card))).map((skill) => skill.id)
}

/**
 * Refuses a paid skill the kit cannot charge for (DECISIONS: Paid calls —
 * 402 challenges only for lamports, an integer amount), naming the file,
 * before any wallet question is asked.
 */
export function assertChargeable(card: PublicCard, source: string): void {
  for (const skill of card.skills) {
    const pricing = skillPricing(skill, card)
    if (!isPaid(pricing)) continue
    const where = skill.pricing ? `skills[${card.skills.indexOf(skill)}].pricing` : 'pricing'
    if (String(pricing.currency).toLowerCase() !== 'lamports') {
      throw new MeshError('invalid', 'agent_invalid', `${source}: skill "${skill.id}" is priced in ${JSON.stringify(pricing.currency)}; an agent served by mesh can only charge in lamports (set "currency": "lamports" with an integer amount, or make it free)`, {field: `${where}.currency`})
    }
    if (!Number.isSafeInteger(pricing.amount)) {
      throw new MeshError('invalid', 'agent_invalid', `${source}: skill "${skill.id}" costs ${pricing.amount} lamports; an amount in lamports must be an integer`, {field: `${where}.amount`})
    }
  }
}


/** createAgent's and createPayments' TypeErrors are about the folder or the flags: one MeshError naming the file. */
function asFolderError(error: unknown, source: string): unknown {
  if (!(error instanceof TypeError)) return error
  const sentence = error.message.replace(/^(createAgent|createPayments): /, '')
  return new MeshError('invalid', 'agent_invalid', `${source}: ${sentence}`)
}

/** Builds and starts the agent; throws before listening on anything wrong with the folder or the payment settings. */
export async function serveFolder(options: ServeFolderOptions): Promise<ServedFolder> {
  const {folder, logger} = options
  // The card carries the public URL: port and URL are settled before the agent is built.
  const {port, publicUrl} = await publicAddress(options)
  const card: PublicCard = {...folder.card, url: publicUrl}
  const paidSkills = paidSkillIds(card)
  assertChargeable(card, folder.cardFile)

  if (paidSkills.length > 0 && !options.payments) {
    throw new MeshError('invalid', 'usage_wallet_required', `Skills ${paidSkills.map((id) => `"${id}"`).join(', ')} of ${folder.cardFile} are paid; pass --wallet <address> (the agent wallet's public address)`)
  }
  // One database for the agent's state: a restart forgets no used nonce and no payment.
  const storage = await openStorage({dataDir: options.dataDir})
  const {db} = storage
  let agent: Agent
  try {
    migrateSqlite(db, AGENT_NONCES_MIGRATIONS)
    let payments: PaymentGate | undefined
    try {
      if (paidSkills.length > 0) payments = createPayments({...options.payments!, db, card, logger})
    } catch (error) {
      throw asFolderError(error, 'pay-per-call')
    }
    try {
      // issue 18: v2 Mesh-Sig names the card's url (the public URL); behind --proxy with no --public-url, the Host each request reached.
      const audienceFromRequest = options.proxy === true && options.publicUrl === undefined
      agent = createAgent({card, skills: folder.handlers, payments, nonces: createSqliteNonceStore(db), agentId: options.agentId, logger, audienceFromRequest})
    } catch (error) {
      await payments?.close()
      throw asFolderError(error, folder.cardFile)
    }
  } catch (error) {
    await storage.close()
    throw error
  }
  let hosted: HostedServer
  try {
    hosted = await serve({services: [agent], logger, port, host: options.host, proxy: options.proxy})
  } catch (error) {
    await agent.close()
    await storage.close()
    throw error
  }
  return {
    agent,
    url: hosted.url,
    port: hosted.port,
    publicUrl,
    card: agent.card,
    replacedUrl: folder.card.url.replace(/\/+$/, '') === publicUrl ? null : folder.card.url,
    paidSkills,
    stop: async () => {
      await hosted.stop()
      await storage.close()
    },
  }
}
