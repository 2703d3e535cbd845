/**
 * createAgent: the agent contract in a few lines (issue 11, deliverable 1).
 * Takes a PublicCard and one handler per skill; returns a MeshService that
 * serve() (src/http/host.ts) puts on a port, like the registry's.
 */
import type {MeshService} from '../../http/service.js'
import type {PublicCard} from '../../protocol/agent-card.js'
import type {A2AAgentCard} from '../a2a-card.js'
import {agentMiddleware} from '../http/agent-middleware.js'
import {createAgentCore} from './agent-core.js'
import {checkOptions} from './check-options.js'
import type {CreateAgentOptions} from './types.js'

/** A served agent: the MeshService plus what it serves, for callers that want to show or register it. */
export interface Agent extends MeshService {
  /** The PublicCard as served at `/.well-known/agent.json` (a frozen copy, checked at creation). */
  readonly card: PublicCard
  /** The A2A AgentCard served at `/.well-known/agent-card.json`. */
  readonly a2aCard: A2AAgentCard
  /** The id `/health` reports. */
  readonly agentId: string
  /** The skill ids served at `POST /v1/<id>`, in card order. */
  readonly skillIds: readonly string[]
}

/**
 * Builds an agent. Throws a TypeError (one clear sentence) when the card is
 * not a valid PublicCard, a skill has no handler or a handler no skill, a
 * skill id is reserved (`whoami`, `topup`), a paid skill is priced in
 * anything but integer lamports or comes without `payments`, or an input
 * schema does not compile.
 *
 * `start()` starts the payment gate's background work; `close()` aborts the
 * signal of running handlers and closes the gate.
 */
export function createAgent(options: CreateAgentOptions): Agent {
  const checked = checkOptions(options)
  const core = createAgentCore(checked)
  let closed: Promise<void> | undefined
  return {
    name: 'agent',
    card: core.card,
    a2aCard: core.a2aCard,
    agentId: core.agentId,
    skillIds: Object.freeze([...core.skills.keys()]),
    middleware: agentMiddleware(core, checked.logger),
    start: () => checked.payments?.start?.(),
    close() {
      closed ??= (async () => {
        core.abortAll()
        await checked.payments?.close()
      })()
      return closed
    },
  }
}
