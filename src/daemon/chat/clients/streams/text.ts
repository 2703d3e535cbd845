/**
 * The `text` format: any CLI without a structured stream (and every custom
 * client unless its template says otherwise). Each stdout line is a line of
 * the answer, as before issue 19; such a client reports no session, usage
 * or tool activity.
 */
import {emptyReport, type StreamDecoder, type StreamSink} from './types.js'

export function textDecoder(sink: StreamSink): StreamDecoder {
  const report = emptyReport()
  return {
    line(line) {
      sink.text(line)
      sink.endMessage()
    },
    report: () => report,
  }
}
