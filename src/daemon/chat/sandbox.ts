/**
 * Asks are sandboxed (issue 19, deliverable 4; spec: Authentication — a
 * member token grants that member's ask and poll routes and nothing else):
 * the markers of a turn an outside caller may have steered are never acted
 * on. The turn keeps its text (the ask's answer); its `mesh-delegate`,
 * `mesh-become`, `mesh-report` and `mesh-commit` blocks are dropped before
 * any hook sees them, and the debug stream says what was ignored.
 *
 * A turn is steered by a caller when one of its inputs came through
 * `POST /team/<id>/ask`, or when it runs in an ask conversation at all: the
 * session there holds the caller's words, so a later turn in it (a queued
 * item, the operator continuing it, a wake) could carry out what the caller
 * asked for one turn later. Those turns are sandboxed too.
 * docs/daemon.md, Asks are sandboxed; docs/security.md, A member-token holder.
 */
import type {DaemonContext} from '../context.js'
import {ASK_CONV_PREFIX} from './constants.js'
import type {Marker, TurnFinal} from './types.js'

/** Debug-stream tag of the markers an ask turn printed and the daemon ignored. */
export const SANDBOX_TAG = 'chat.ask.sandbox'

/** The turn may have been steered by a member-token caller: its markers are not acted on. */
export function isSandboxed(final: Pick<TurnFinal, 'conv' | 'inputs'>): boolean {
  return final.conv.startsWith(ASK_CONV_PREFIX) || final.inputs.some((input) => input.origin === 'ask')
}

const named = (marker: Marker) => (marker.kind === 'invalid' ? marker.name : `mesh-${marker.kind}`)

/** The final as the hooks see it: unchanged, or without its markers (logged) when the turn is sandboxed. */
export function sandboxFinal(context: Pick<DaemonContext, 'debug'>, final: TurnFinal): TurnFinal {
  if (!isSandboxed(final) || final.markers.length === 0) return final
  const counts = new Map<string, number>()
  for (const marker of final.markers) counts.set(named(marker), (counts.get(named(marker)) ?? 0) + 1)
  const list = [...counts].map(([name, count]) => (count > 1 ? `${count} × ${name}` : name)).join(', ')
  context.debug.log({
    lvl: 'warn',
    tag: SANDBOX_TAG,
    msg: `${final.profile} printed ${list} in ${final.conv}, a conversation a member-token caller can steer: ignored (no brief, no task resolved, no commit, no become)`,
    conv: final.conv,
    agent_id: final.profile,
    data: {turn_id: final.turn_id, ignored: final.markers.map(named)},
  })
  return {...final, markers: []}
}
