import type {Logger} from '../../src/lib/log.js'

export interface LoggedLine {
  level: 'debug' | 'info' | 'warn' | 'error'
  message: string
  fields: Record<string, unknown>
}

/** A Logger that keeps every line, so a test can assert what an operator would read. */
export function captureLogger(): {logger: Logger; lines: LoggedLine[]; about(nodeId: string): string[]} {
  const lines: LoggedLine[] = []
  const at = (level: LoggedLine['level']) => (message: string, fields: Record<string, unknown> = {}) => void lines.push({level, message, fields})
  return {
    logger: {debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error')},
    lines,
    /** `level message` of the lines at info and above naming node `nodeId`, in order (what an operator reads). */
    about: (nodeId) => lines.filter((line) => line.level !== 'debug' && line.fields.node_id === nodeId).map((line) => `${line.level} ${line.message}`),
  }
}
