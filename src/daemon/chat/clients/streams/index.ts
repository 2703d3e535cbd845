/**
 * The decoder of each client stream format (docs/daemon.md, Clients —
 * formats): one file per format, all fed one stdout line at a time.
 */
import {claudeDecoder} from './claude.js'
import {codexDecoder} from './codex.js'
import {geminiDecoder} from './gemini.js'
import {textDecoder} from './text.js'
import type {StreamDecoder, StreamFormat, StreamSink} from './types.js'

export {STREAM_FORMATS, isStreamFormat} from './types.js'
export type {ReportedUsage, StreamDecoder, StreamFormat, StreamReport, StreamSink, ToolStep} from './types.js'

const DECODERS: Record<StreamFormat, (sink: StreamSink) => StreamDecoder> = {
  text: textDecoder,
  'claude-stream': claudeDecoder,
  'codex-json': codexDecoder,
  'gemini-stream': geminiDecoder,
}

/** A decoder of `format` calling `sink`. */
export const createDecoder = (format: StreamFormat, sink: StreamSink): StreamDecoder => DECODERS[format](sink)
