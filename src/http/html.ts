/**
 * Safe HTML for server-rendered pages (the registry site, the daemon's IDE).
 * Written here rather than taken from a package: the pages need one property a string escaper
 * (escape-html, escape-goat) does not give, that a fragment built with
 * `html` can be nested in another without being escaped twice while every
 * other interpolated value always is. Hostile text is also made inert for a
 * reader: bidi controls, which would reorder what a person sees (a file
 * name, a URL), are dropped.
 */

/** A fragment of markup that is already safe: only `html`, `raw` and `join` make one. */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value
  }
}

const ENTITIES: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;'}

// Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), marks (U+200E, U+200F, U+061C).
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g

/** Escapes text for element content and quoted attributes, dropping bidi controls. */
export const escapeText = (value: unknown): string =>
  String(value ?? '')
    .replace(BIDI_CONTROLS, '')
    .replace(/[&<>"'`]/g, (c) => ENTITIES[c])

/** Marks trusted markup (the site's own) as safe. Never pass it anything a user wrote. */
export const raw = (markup: string) => new Html(markup)

type Value = Html | string | number | boolean | null | undefined | readonly Value[]

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return ''
  if (value instanceof Html) return value.value
  if (Array.isArray(value)) return value.map(render).join('')
  return escapeText(value)
}

/**
 * Tagged template: the literal parts are trusted markup, every interpolated
 * value is escaped unless it is an Html fragment; arrays are joined;
 * null, undefined and false render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]
  return new Html(out)
}

/** Joins fragments with a trusted separator. */
/** The first lines of every page's <head> (the site, the IDE, the roadmap file): UTF-8, a phone's width, light and dark. */
export const PAGE_HEAD_META = raw(`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">`)

export const join = (parts: readonly Value[], separator = '') => new Html(parts.map(render).join(separator))

/**
 * Shortens text for display (a card may carry 16 KB in a description); the
 * full text stays in the JSON views. Cuts at a code point, never inside a
 * surrogate pair.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const chars = Array.from(text)
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`
}

/**
 * The URL when it is an absolute http(s) URL a link may point to, else null:
 * `javascript:`, `data:` and relative URLs from a card are shown as text, never linked.
 */
export function safeHttpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2048 || !URL.canParse(value)) return null
  const url = new URL(value)
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
}

/**
 * A value as JSON for a data block (`<script type="application/json">`,
 * which no CSP governs since it never runs): `<`, `>`, `&` and the line
 * separators become `\u` escapes (the same value to JSON.parse), so no text
 * can close the element or open a comment.
 */
export const scriptJson = (value: unknown) =>
  new Html(JSON.stringify(value ?? null).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`))
