/**
 * Text that came from other people (handles, messages, cluster names, post
 * bodies) on its way to a terminal. Peers choose it freely (spec: the handle
 * is any string), so an escape sequence in it could move the cursor, clear
 * the screen, retitle the window or hide text behind bidi overrides. Every
 * human rendering in the cluster CLI and the room view goes through here;
 * `--json` output stays as the relay sent it.
 */

/** C0 controls but tab and line breaks, DEL, C1 controls, and the bidi embedding, override and isolate marks. */
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/** One line for a terminal: line breaks shown as ↵, tabs as spaces, every other control as �. */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ↵ ').replace(/\t/g, '  ').replace(UNSAFE, '\ufffd')
}

/** Columns padded to the widest cell (each cell made terminal-safe); the last column is not padded. */
export function table(rows: string[][]): string[] {
  const safe = rows.map((row) => row.map(terminalSafe))
  const widths = safe[0].map((_, column) => Math.max(...safe.map((row) => row[column].length)))
  return safe.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ').trimEnd())
}
