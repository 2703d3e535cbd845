/**
 * Markdown as safe HTML, through markdown-it (CommonMark): the registry's
 * resources page, the daemon IDE's task bodies. Raw HTML in the file is
 * never passed through (`html: false` shows it as text); HTML comments,
 * which the standard's own files use for notes to the editor, are dropped
 * first; bidi controls are dropped as on every page (html.ts); a link is
 * made only to an absolute http(s) URL (`safeHttpUrl`), anything else
 * (`javascript:`, `data:`, relative) stays text; bare URLs are linked, bare
 * domain names are not.
 */
import MarkdownIt from 'markdown-it'
import type {Token} from 'markdown-it'
import {BIDI_CONTROLS, raw, safeHttpUrl, type Html} from './html.js'

export interface RenderedMarkdown {
  /** The text of the first level-1 heading, if any (the page's title). */
  title?: string
  body: Html
}

const markdown = new MarkdownIt({html: false, linkify: true})
markdown.linkify.set({fuzzyLink: false, fuzzyEmail: false})
markdown.validateLink = (url) => safeHttpUrl(url) !== null
markdown.renderer.rules.link_open = (tokens, index, options, _env, self) => {
  tokens[index].attrSet('rel', 'nofollow noopener')
  return self.renderToken(tokens, index, options)
}

const COMMENT = /<!--[\s\S]*?-->/g

/** The source's tokens, comments and bidi controls dropped first. */
export const markdownTokens = (source: string): Token[] => markdown.parse(source.replace(COMMENT, '').replace(BIDI_CONTROLS, ''), {})

/** Tokens of `markdownTokens` (or a slice of them) as safe HTML. */
export const renderTokens = (tokens: Token[]): Html => raw(markdown.renderer.render(tokens, markdown.options, {}))

/** The text of a heading that opens at `index` of `tokens`. */
export const headingText = (tokens: Token[], index: number): string => tokens[index + 1]?.children?.map((child) => child.content).join('') ?? ''

export function renderMarkdown(source: string): RenderedMarkdown {
  const tokens = markdownTokens(source)
  const h1 = tokens.findIndex((token) => token.type === 'heading_open' && token.tag === 'h1')
  const title = h1 >= 0 ? headingText(tokens, h1) : undefined
  return {title, body: renderTokens(tokens)}
}
