/**
 * The Wall (spec: What the service does — live chat, broadcast or direct):
 * checks each client frame, resolves hashtags, serializes the `message`
 * frame once, hands the same bytes to every local recipient and to the other
 * nodes, and acks the sender with the number of visible sockets reached.
 */
import {invalid} from '../lib/errors.js'
import type {Hub, HubOptions} from './hub.js'
import type {ResolvedTags} from './types.js'
import {errorFrame, messageFrame, parseClientFrame, payloadText, type ClientSend} from './ws/frames.js'
import type {Member} from './ws/member.js'

export class Wall {
  constructor(
    private readonly hub: Hub,
    private readonly o: HubOptions,
  ) {}

  /**
   * Size and rate are checked as frames arrive. A frame is handled at once
   * when the member is idle and no hashtag needs resolving (the common case,
   * no promise per message); otherwise it waits in the member's queue so
   * order is kept.
   */
  onClientFrame(member: Member, data: Buffer, isBinary: boolean) {
    if (member.closing) return
    const {maxFrameBytes, messagesPerWindow, messageWindowMs} = this.o.limits
    // Every frame counts toward the rate, refused ones too: a flood of oversized frames is still a flood.
    const wait = member.takeMessage(messagesPerWindow, messageWindowMs)
    if (wait > 0) return this.reply(member, errorFrame('rate_limited', `more than ${messagesPerWindow} messages in ${messageWindowMs} ms; message dropped, retry in ${wait} s`))
    if (data.length > maxFrameBytes) {
      return this.reply(member, errorFrame('frame_too_large', `frame is ${data.length} bytes; the limit is ${maxFrameBytes} (send larger content as stream chunks or media urls)`))
    }
    if (isBinary) return this.reply(member, errorFrame('invalid_frame', 'binary frames are not accepted; send text (a string or JSON)'))
    const parsed = parseClientFrame(data.toString('utf8'))
    if (!parsed.ok) return this.reply(member, errorFrame('invalid_frame', parsed.detail))
    const send = parsed.send
    const text = this.o.boards ? payloadText(send.payload) : null
    if (text === null || !text.includes('#')) {
      if (member.idle) return this.deliver(member, send, undefined)
      return this.queue(member, () => this.deliver(member, send, undefined), data.length)
    }
    this.queue(member, async () => this.deliver(member, send, await this.resolveTags(member.clusterId, text)), data.length)
  }

  /** An error frame for the sender, in order with its earlier sends. */
  private reply(member: Member, frame: Buffer) {
    if (member.idle) member.send(frame)
    else this.queue(member, () => void member.send(frame), frame.length)
  }

  private queue(member: Member, task: () => Promise<void> | void, bytes: number) {
    if (!member.enqueue(task, bytes)) member.send(errorFrame('busy', 'too many messages waiting; message dropped'))
  }

  /** spec Events: one `message` per connected recipient, an `ack` to the sender. */
  private deliver(member: Member, send: ClientSend, tags: ResolvedTags | undefined) {
    const room = this.hub.rooms.get(member.clusterId)
    if (member.closing || !room) return
    const {to, payloadJson} = send
    const frame = messageFrame({from: member.identity.agent, fromDid: member.identity.did, to, ts: new Date(this.o.clock()).toISOString(), payloadJson, tags})
    if (to === null) room.deliverAll(frame, member.id)
    else room.deliverDirect(frame, to, member.id)
    this.hub.publish(member.clusterId, {k: 'msg', node: this.hub.nodeId, to}, frame)
    member.sendFrame({type: 'ack', to, delivered: room.roster.countVisible(to, member.id)})
  }

  private async resolveTags(clusterId: string, text: string): Promise<ResolvedTags | undefined> {
    if (!this.o.boards || !text.includes('#')) return undefined
    try {
      return await this.o.boards.resolveTags(clusterId, text)
    } catch (error) {
      this.o.logger.warn('hashtag resolution failed', {cluster_id: clusterId, error: String(error)})
      return undefined
    }
  }

  /** A broadcast without a socket (the registry's legacy channel route). */
  async broadcastAs(clusterId: string, from: string, payload: unknown): Promise<{delivered: number}> {
    let payloadJson: string
    try {
      // undefined has no JSON text; it goes out as null, the payload being required on the wire.
      payloadJson = JSON.stringify(payload) ?? 'null'
    } catch {
      throw invalid('invalid_payload', 'The payload cannot be serialized as JSON (a cycle, a BigInt, or nesting too deep)', {field: 'payload'})
    }
    const text = payloadText(payload)
    const tags = text === null ? undefined : await this.resolveTags(clusterId, text)
    const frame = messageFrame({from, fromDid: null, to: null, ts: new Date(this.o.clock()).toISOString(), payloadJson, tags})
    const room = this.hub.rooms.get(clusterId)
    room?.deliverAll(frame)
    this.hub.publish(clusterId, {k: 'msg', node: this.hub.nodeId, to: null}, frame)
    if (room?.unsubscribe) return {delivered: room.roster.countVisible(null)}
    const entries = await this.o.store.listPresence(clusterId, this.hub.aliveSince())
    return {delivered: entries.filter((e) => e.vis !== 'ghost').length}
  }
}
