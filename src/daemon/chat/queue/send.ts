/**
 * Hands a claimed (`sending`) queue item to the chat engine as a turn of its
 * conv, then records how that went: `sent` with `sent_at`, back to `queued`,
 * or `failed` with `failed_reason`. The promote route and the dispatcher
 * both send this way (spec: States and transitions — queue items).
 */
import {isMeshError} from '../../../lib/errors.js'
import {COORDINATOR} from '../constants.js'
import type {ChatEngine, SubmitResult} from '../types.js'
import type {QueueItem} from '../../../protocol/queue.js'
import type {QueueStore} from './store.js'

/**
 * Who runs a queued item: the conv's member as the engine knows it; for a
 * conv the engine has not seen, the queue's stored `member`, else the
 * coordinating architect (the chat area's default).
 */
export function memberOf(engine: ChatEngine, conv: string, stored: string | undefined): string {
  return engine.conversation(conv)?.member ?? stored ?? COORDINATOR
}

/** `code: message` of a refusal, as `failed_reason` keeps it. */
export const reasonOf = (error: unknown): string =>
  isMeshError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error)

export interface Sent {
  item: QueueItem
  turn: SubmitResult
}

/**
 * Submits the claimed item. On a refusal `afterRefusal` says where the item
 * goes (`failed`, or `queued` to keep its place) and the engine's error is
 * thrown on once that is written.
 */
export async function sendItem(
  store: QueueStore,
  engine: ChatEngine,
  conv: string,
  claimed: {item: QueueItem; member?: string},
  afterRefusal: (error: unknown) => 'failed' | 'queued',
): Promise<Sent> {
  const {item} = claimed
  let turn: SubmitResult
  try {
    turn = await engine.submit({conv, member: memberOf(engine, conv, claimed.member), text: item.text, author: 'operator', origin: 'queue', meta: {queue_item: item.id}})
  } catch (error) {
    const to = afterRefusal(error)
    await store.settle(conv, item.id, to === 'failed' ? {status: 'failed', reason: reasonOf(error)} : {status: 'queued'})
    throw error
  }
  const sent = await store.settle(conv, item.id, {status: 'sent', turn_id: turn.turn_id})
  // A hand edit removed the item mid-send: the turn is on its way all the same.
  return {item: sent ?? {...item, status: 'sent'}, turn}
}
