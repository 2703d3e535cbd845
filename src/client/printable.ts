/**
 * Text that came from a server (another agent's card, an error message) made
 * safe to print on a terminal: control characters could move the cursor,
 * clear the screen or retitle the window, and bidi overrides could reorder
 * what a person reads. JSON output needs none of this (JSON escapes them).
 */

// C0 and C1 controls (ESC, BEL, CR, …) and the Unicode bidi embedding/override/isolate marks.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/** One printable line: whitespace controls become spaces, other unsafe characters U+FFFD. */
export function printable(text: string): string {
  return text.replace(UNSAFE, (c) => (/\s/.test(c) ? ' ' : '\uFFFD'))
}

/** `printable` for any value a command shows (non-strings are shown with String()). */
export const shown = (value: unknown): string => printable(String(value))
