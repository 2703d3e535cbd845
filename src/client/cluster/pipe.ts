import {createInterface} from 'node:readline'
import type {Readable, Writable} from 'node:stream'
import {isMeshError, type MeshError} from '../../lib/errors.js'
import {FLUSH_TIMEOUT_MS, STREAM_SWEEP_MS} from './constants.js'
import type {ClusterConnection, ConnectionStatus} from './connection.js'
import type {MessageFrame, ServerFrame, UnknownFrame} from './frames.js'
import {parsePipeLine} from './input.js'
import {Outbox} from './outbox.js'
import {assembledMessage, StreamReassembler, type AssembledStream} from './streams.js'

/** How a pipe session ended; the command maps it to an exit code (docs/cluster-cli.md). */
export type PipeEnd =
  | {reason: 'input_ended'}
  | {reason: 'quit'}
  | {reason: 'gone'}
  | {reason: 'fatal'; error: MeshError}

export interface PipeOptions {
  connection: ClusterConnection
  /** Lines to send (stdin). */
  input: Readable
  /** Every server frame as one NDJSON line (stdout). */
  output: Writable
  /** Status and refused input lines, for a person (stderr). */
  notices: Writable
  /** How long to wait for acks once input ends. */
  flushTimeoutMs?: number
  /** Print one assembled `message` per finished stream instead of each chunk (`--assemble-streams`). */
  assembleStreams?: boolean
  /** The reassembler to use with assembleStreams (tests inject limits and a clock). */
  streams?: StreamReassembler
  /** How often silent streams are given up (default STREAM_SWEEP_MS). */
  sweepMs?: number
  /** Pause between outgoing stream chunks (default STREAM_CHUNK_INTERVAL_MS). */
  chunkIntervalMs?: number
}

/**
 * Pipe mode of `mesh cluster join`: connects, then turns stdin lines into
 * client frames and prints every server frame (`ready` first) as one NDJSON
 * line. Resolves when input ends (after the last sends are acknowledged),
 * on `/quit`, when the cluster is deleted, or on a fatal error — a refused
 * connect (401, 404, unreachable) included. A line too long for one frame
 * goes out as stream chunks; with `assembleStreams`, incoming chunks are
 * printed as one `message` per stream (docs/cluster-cli.md, Streams).
 */
export async function runPipe(options: PipeOptions): Promise<PipeEnd> {
  const {connection, input, output, notices} = options
  const note = (line: string) => notices.write(line + '\n')
  const streams = options.assembleStreams ? (options.streams ?? new StreamReassembler()) : undefined
  const printStreams = (updates: AssembledStream[]) => {
    for (const stream of updates) if (stream.state !== 'open') output.write(JSON.stringify(assembledMessage(stream)) + '\n')
  }
  const printFrame = (frame: ServerFrame | UnknownFrame, raw: string) => {
    if (streams && frame.type === 'message') {
      const updates = streams.push(frame as MessageFrame)
      if (updates) return printStreams(updates)
    }
    // Chunks sent while this socket is away are lost for good (the wall stores nothing): a stream open now cannot complete.
    if (streams && frame.type === 'closed') printStreams(streams.closeAll('disconnected'))
    // The frame as the relay sent it (a payload keeps its exact numbers and any depth). A raw line
    // break in valid JSON can only be whitespace between tokens, so folding it keeps one frame per line.
    output.write(raw.replace(/[\r\n]+/g, ' ') + '\n')
  }
  const onStatus = (status: ConnectionStatus) => {
    if (streams && status.state !== 'connected' && status.state !== 'connecting') printStreams(streams.closeAll('disconnected'))
    if (status.state === 'reconnecting') note(`reconnecting in ${Math.ceil((status.retryInMs ?? 0) / 1000)}s (attempt ${status.attempt}): ${status.lastError ?? 'connection lost'}`)
    if (status.state === 'connected') note('connected')
  }
  const onProtocolError = ({error}: {error: string}) => note(`skipped a frame from the relay: ${error}`)

  connection.on('frame', printFrame)
  connection.on('status', onStatus)
  connection.on('protocol-error', onProtocolError)
  const sweep = streams ? setInterval(() => printStreams(streams.expire()), options.sweepMs ?? STREAM_SWEEP_MS) : undefined
  sweep?.unref()
  const detach = () => {
    clearInterval(sweep)
    connection.off('frame', printFrame).off('status', onStatus).off('protocol-error', onProtocolError)
  }
  const outbox = new Outbox({sink: connection, chunkIntervalMs: options.chunkIntervalMs, onError: (error) => note(`line not sent: ${error.message}`)})

  try {
    await connection.connect()
  } catch (error) {
    detach()
    connection.close()
    if (!input.readableEnded) input.destroy()
    return {reason: 'fatal', error: error as MeshError}
  }

  return new Promise<PipeEnd>((resolve) => {
    const lines = createInterface({input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false})
    let finished = false
    let paused = false
    const finish = async (end: PipeEnd, flush: boolean) => {
      if (finished) return
      finished = true
      lines.close()
      if (flush) await outbox.idle()
      outbox.close()
      if (flush) await connection.drain(options.flushTimeoutMs ?? FLUSH_TIMEOUT_MS)
      if (streams) printStreams(streams.closeAll('closed'))
      detach()
      connection.off('gone', onGone).off('fatal', onFatal)
      connection.close()
      // Input that is still open (a terminal, a producer that never ends) must not keep the process alive.
      if (!input.readableEnded) input.destroy()
      resolve(end)
    }
    const onGone = () => void finish({reason: 'gone'}, false)
    const onFatal = (error: MeshError) => void finish({reason: 'fatal', error}, false)
    connection.on('gone', onGone).on('fatal', onFatal)

    lines.on('line', (line) => {
      if (finished) return
      const action = parsePipeLine(line)
      if (action.kind === 'quit') return void finish({reason: 'quit'}, true)
      if (action.kind === 'invalid') return note(`line not sent: ${action.message}`)
      if (action.kind !== 'send') return
      try {
        // A JSON line goes out as written, so its payload reaches peers untouched (unless it is streamed).
        if (action.text !== undefined) outbox.sendRaw(action.text, action.frame)
        else outbox.send(action.frame)
      } catch (error) {
        note(`line not sent: ${isMeshError(error) ? error.message : String(error)}`)
      }
      // While a stream goes out, stop reading: what waits stays small.
      if (outbox.busy && !paused) {
        paused = true
        lines.pause()
        void outbox.idle().then(() => {
          paused = false
          if (!finished) lines.resume()
        })
      }
    })
    lines.on('close', () => void finish({reason: 'input_ended'}, true))
  })
}
