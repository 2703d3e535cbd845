/**
 * `timeline_read`: a conversation's thread (`GET /chat/conv/<conv>/thread`,
 * docs/daemon-api.md, Chat), or, with no daemon, the same reader on the
 * timeline files (src/daemon/chat/thread/read.ts).
 */
import {invalid, notFound} from '../../lib/errors.js'
import type {McpProject} from './caller.js'

export async function readTimeline(project: McpProject, conv: string, limit: number): Promise<unknown> {
  const {CONV_PATTERN} = await import('../../daemon/chat/constants.js')
  if (!CONV_PATTERN.test(conv)) throw invalid('invalid_conv', `conv is a conversation id (c-…, m-<member>, ask-…); got "${conv.slice(0, 80)}"`, {field: 'conv'})
  const daemon = await project.daemon()
  if (daemon) return daemon.call('GET', `/chat/conv/${conv}/thread?limit=${limit}`)
  const {readThread} = await import('../../daemon/chat/thread/read.js')
  const thread = await readThread(project.reader, conv, limit)
  if (!thread) throw notFound('conv_not_found', `No conversation ${conv} in the timeline`)
  return {...thread, live: false}
}
