/**
 * After a failed turn the queue holds (issue 19, Recovery): a conversation
 * whose turn failed does not send its next item by itself — without this, a
 * failing member drained a 50-item queue into 50 failures in seconds. The
 * queue is `paused` with the failure as its reason until the operator
 * resumes it (`mesh queue resume`, `POST /chat/conv/<conv>/queue/resume`).
 * A turn the daemon's own stop cut short is no failure of the conversation:
 * after a restart the queue waits for the next finished turn anyway.
 * docs/daemon.md, Queue.
 */
import {isMeshError} from '../../../lib/errors.js'
import type {FinalHook} from '../types.js'
import {QUEUE_DEBUG_TAG} from './constants.js'
import {queueStoreOf, type QueueContext} from './store.js'

export function queuePauseHook(context: QueueContext): FinalHook {
  const store = queueStoreOf(context)
  return async (final) => {
    if (final.status !== 'failed' || final.reason === 'shutdown') return
    const reason = `turn ${final.turn_id} of ${final.profile} failed (${final.reason ?? 'exit'})${final.detail ? `: ${final.detail}` : ''}`
    try {
      if (await store.pause(final.conv, {reason, turn_id: final.turn_id})) {
        context.debug.log({lvl: 'warn', tag: QUEUE_DEBUG_TAG.pause, conv: final.conv, msg: `the queue of ${final.conv} is paused: ${reason}; \`mesh queue resume ${final.conv}\` lets it go on`})
      }
    } catch (error) {
      // An unreadable or linked queue file holds nothing to pause; the dispatcher will refuse it the same way.
      context.debug.log({lvl: 'warn', tag: QUEUE_DEBUG_TAG.pause, conv: final.conv, msg: `the queue of ${final.conv} could not be paused: ${isMeshError(error) ? error.code : (error as Error).message}`})
    }
  }
}
