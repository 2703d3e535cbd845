/**
 * What the patterns of schemas/ ask for, in words (issue 21): a person told
 * `member: must match pattern "^[a-z][a-z0-9-]{1,31}$"` learns nothing about
 * what to type. Keyed by the pattern exactly as the schemas write it;
 * test/lib/schema-words.test.ts checks that every pattern in schemas/ has its
 * words here, so a new pattern cannot reach a person raw.
 */

/** The pattern's meaning, as what the value "must be". */
export const PATTERN_WORDS: Readonly<Record<string, string>> = {
  // Ids.
  '^[a-z][a-z0-9-]{1,31}$': 'an id: a lowercase letter, then 1 to 31 of a-z, 0-9 and - (e.g. developer)',
  '^(operator|[a-z][a-z0-9-]{1,31})$': '"operator" or a team member id (a lowercase letter, then 1 to 31 of a-z, 0-9 and -, e.g. developer)',
  '^[A-Za-z][A-Za-z0-9_-]{1,31}$': 'a task or initiative id: a letter, then 1 to 31 of letters, digits, _ and - (e.g. API12)',
  '^[a-z0-9][a-z0-9._-]{0,79}$': 'a conversation id: a lowercase letter or digit, then up to 79 of a-z, 0-9, ., _ and - (e.g. c-3f9a0b1c2d3e)',
  '^[a-z0-9-]{2,40}$': 'a module or project id: 2 to 40 of a-z, 0-9 and - (e.g. api)',
  '^[A-Z][A-Z0-9]{0,3}$': 'a task prefix: a capital letter, then up to 3 capital letters or digits (e.g. API)',
  '^[WP]\\d+$': 'a workflow or protocol id: W or P and a number (e.g. W1)',
  '^[A-Za-z0-9._-]{1,40}$': 'a session name: 1 to 40 of letters, digits, ., _ and -',
  '^[A-Za-z0-9_-]{3,64}$': 'an agent id: 3 to 64 of letters, digits, _ and -',
  '^[a-zA-Z0-9_-]+$': 'an agent id: letters, digits, _ and - only',
  '^[A-Za-z0-9_-]+$': 'a cursor as the previous page gave it: letters, digits, _ and - only',
  '^[a-z0-9]+(-[a-z0-9]+)*$': 'lowercase words of a-z and 0-9 joined by single dashes (e.g. login-form)',
  '^[a-z][a-z0-9_]*$': 'a name of a-z, 0-9 and _, starting with a letter',
  '^c_[A-Za-z0-9_-]{16,64}$': 'a cluster id: c_ then 16 to 64 of letters, digits, _ and -',
  // Tags and event types.
  '^[a-z0-9]+(-[a-z0-9]+)*(\\.[a-z0-9]+(-[a-z0-9]+)*)*$': 'a tag: lowercase words of a-z and 0-9 joined by dashes, namespaces separated by dots (e.g. ux.run-all)',
  '^[a-z]+(-[a-z]+)*(\\.[a-z]+(-[a-z]+)*)*$': 'an event type: lowercase words joined by dashes, separated by dots (e.g. task.updated)',
  '^[a-z][a-z0-9_-]*(\\.[a-z][a-z0-9_-]*)*$': 'an event type: dot-separated names of a-z, 0-9, _ and -, each starting with a letter (e.g. chat.user)',
  // Text.
  '\\S': 'not blank',
  '^[^\\n\\r]*$': 'one line (no line breaks)',
  '^[^\\u0000-\\u001f\\u007f]+$': 'text without control characters',
  // Numbers.
  '^(0|[1-9][0-9]*)$': 'a whole number written in digits, without leading zeros',
  '^[0-9]{1,3}$': 'a whole number of at most 3 digits',
  '^[0-9]{1,5}$': 'a whole number of at most 5 digits',
  '^\\d+(\\.\\d+)?$': 'a number (e.g. 25 or 2.5)',
  '^\\s*-?\\d+(\\.\\d+)?\\s*,\\s*-?\\d+(\\.\\d+)?\\s*$': 'a latitude and longitude separated by a comma (e.g. 48.85,2.35)',
  // Hashes, times, addresses.
  '^[0-9a-fA-F]{7,64}$': 'a commit SHA: 7 to 64 hexadecimal digits',
  '^[0-9a-f]{64}$': 'a SHA-256: 64 lowercase hexadecimal digits',
  '^SHA256:': 'a key fingerprint starting with SHA256:',
  // Tokens.
  '^ck_': 'a cluster member token (starts with ck_)',
  '^ak_': 'a cluster admin token (starts with ak_)',
  'Z$': 'a UTC time ending in Z',
  '\\.\\d{3}Z$': 'a UTC time with milliseconds (e.g. 2026-01-05T10:00:00.000Z)',
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$': 'a UTC time with milliseconds (e.g. 2026-01-05T10:00:00.000Z)',
  '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$': 'a language tag (e.g. en or pt-BR)',
  '^[^/\\s;]+/[^/\\s;]+\\s*(;.*)?$': 'a media type (e.g. application/json)',
  '^https?://': 'an http:// or https:// URL',
  '^wss?://[^?#]+$': 'a ws:// or wss:// URL without a query or fragment',
  '^[a-z][a-z0-9+.-]*:': 'a URL with its scheme (e.g. solana:…)',
  '^/': 'a path starting with /',
  '^snapshots/\\d{4}-\\d{2}-\\d{2}/[^/]+/.+$': 'a path under snapshots/<YYYY-MM-DD>/',
}

/** What a value failing `pattern` must be, in words; for a pattern of no schema of ours (an agent's own), the pattern itself. */
export function patternWords(pattern: string): string {
  return PATTERN_WORDS[pattern] ?? `of the form the pattern ${pattern} describes`
}
