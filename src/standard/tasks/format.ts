/**
 * Plain aligned columns for terminal listings (`mesh task list`, `mesh
 * initiative list`): a header row, then one row per item; the last column is
 * not padded so lines carry no trailing spaces.
 */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)))
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ').trimEnd()
  return [line(headers), ...rows.map(line)].join('\n')
}
