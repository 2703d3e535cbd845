/**
 * Command lines people copy into a POSIX shell (`mesh call`'s retry line,
 * the commands of the registry's agent page, `mesh trust`). Inside single
 * quotes nothing is special but `'`, which is closed, escaped and reopened
 * (`'\''`), so a hostile word stays one argument. Written here rather than
 * taken from `shell-quote`: that package switches to double quotes and
 * backslashes by content, so the lines already printed and documented would
 * change; this is two lines.
 */

/** One shell word, quoted only when it needs to be (POSIX single quotes). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/** A command line from words (each quoted as needed). */
export const shellCommand = (words: readonly string[]) => words.map(shellWord).join(' ')
