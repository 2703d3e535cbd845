/**
 * The resources page's markdown as safe HTML: a small subset — headings,
 * paragraphs, bullet and numbered lists, block quotes, fenced code, inline
 * code, `**strong**`, `*emphasis*`, `[text](url)` links, `<url>` and bare
 * http(s) URLs. Every piece of text goes through `html` (escaped, bidi
 * controls dropped); links only through `safeHttpUrl`, so a `javascript:`
 * or relative link is shown as its text. Raw HTML in the markdown is never
 * passed through: it is shown as text (HTML comments are dropped, as the
 * standard's own files use them for notes to the editor).
 *
 * Hand-written for now because no markdown library is installed; with
 * `markdown-it` (`html: false`, links validated) this file would shrink to
 * its configuration — asked of the lead in the issue 12 report.
 */
import {html, join, safeHttpUrl, type Html} from '../html.js'

export interface RenderedMarkdown {
  /** The text of the first level-1 heading, if any (the page's title). */
  title?: string
  body: Html
}

// A bare URL: trailing sentence punctuation stays text.
const BARE_URL = /https?:\/\/[^\s<>()"'`]*[^\s<>()"'`.,;:!?*_]/y
const LINK = /\[([^\]\n]{1,500})\]\(\s*<?([^\s()<>]{1,2048})>?\s*\)/y
const ANGLE_URL = /<(https?:\/\/[^\s<>]{1,2048})>/y
const CODE = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/y
const STRONG = /(\*\*|__)(?=\S)([\s\S]*?\S)\1/y
const EMPHASIS = /(\*|_)(?=[^\s*_])([\s\S]*?[^\s*_])\1(?![*_\w])/y

function link(href: string | null, label: Html | string): Html {
  return href ? html`<a href="${href}" rel="nofollow noopener">${label}</a>` : html`${label}`
}

/** Inline markup of one block's text. `links` false inside a link's label (no nested anchors). */
function inline(text: string, links = true): Html {
  const parts: Html[] = []
  let plain = ''
  const flush = () => {
    if (plain) parts.push(html`${plain}`)
    plain = ''
  }
  let i = 0
  const at = (pattern: RegExp) => {
    pattern.lastIndex = i
    return pattern.exec(text)
  }
  while (i < text.length) {
    const c = text[i]
    let m: RegExpExecArray | null = null
    if (c === '`' && (m = at(CODE))) {
      flush()
      parts.push(html`<code>${m[2].trim() || m[2]}</code>`)
    } else if (links && c === '[' && (m = at(LINK))) {
      flush()
      parts.push(link(safeHttpUrl(m[2]), inline(m[1], false)))
    } else if (links && c === '<' && (m = at(ANGLE_URL))) {
      flush()
      parts.push(link(safeHttpUrl(m[1]), m[1]))
    } else if (links && c === 'h' && /[^\w]$|^$/.test(text.slice(Math.max(0, i - 1), i)) && (m = at(BARE_URL))) {
      flush()
      parts.push(link(safeHttpUrl(m[0]), m[0]))
    } else if ((c === '*' || c === '_') && (m = at(STRONG))) {
      flush()
      parts.push(html`<strong>${inline(m[2], links)}</strong>`)
    } else if ((c === '*' || c === '_') && /[^\w]$|^$/.test(text.slice(Math.max(0, i - 1), i)) && (m = at(EMPHASIS))) {
      flush()
      parts.push(html`<em>${inline(m[2], links)}</em>`)
    }
    if (m) i += m[0].length
    else plain += text[i++]
  }
  flush()
  return join(parts)
}

type Block =
  | {kind: 'heading'; level: number; text: string}
  | {kind: 'paragraph'; lines: string[]}
  | {kind: 'list'; ordered: boolean; items: string[]}
  | {kind: 'quote'; lines: string[]}
  | {kind: 'code'; lines: string[]}

const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/
const BULLET = /^ {0,3}[-*+]\s+(.*)$/
const NUMBERED = /^ {0,3}\d{1,9}[.)]\s+(.*)$/
const QUOTE = /^ {0,3}>\s?(.*)$/
const FENCE = /^ {0,3}(```+|~~~+)/
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/

function blocks(markdown: string): Array<Block | {kind: 'rule'}> {
  const lines = markdown.replace(/<!--[\s\S]*?-->/g, '').split(/\r?\n/)
  const out: Array<Block | {kind: 'rule'}> = []
  let open: Block | undefined
  const close = () => {
    if (open) out.push(open)
    open = undefined
  }
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]
    const fence = FENCE.exec(line)
    if (fence) {
      close()
      const code: string[] = []
      while (++n < lines.length && !lines[n].trimStart().startsWith(fence[1])) code.push(lines[n])
      out.push({kind: 'code', lines: code})
      continue
    }
    let m: RegExpExecArray | null
    if (!line.trim()) close()
    else if (RULE.test(line)) {
      close()
      out.push({kind: 'rule'})
    } else if ((m = HEADING.exec(line))) {
      close()
      out.push({kind: 'heading', level: m[1].length, text: m[2] ?? ''})
    } else if ((m = BULLET.exec(line)) || (m = NUMBERED.exec(line))) {
      const ordered = !BULLET.test(line)
      if (open?.kind !== 'list' || open.ordered !== ordered) {
        close()
        open = {kind: 'list', ordered, items: []}
      }
      open.items.push(m[1])
    } else if ((m = QUOTE.exec(line))) {
      if (open?.kind !== 'quote') {
        close()
        open = {kind: 'quote', lines: []}
      }
      open.lines.push(m[1])
    } else if (open?.kind === 'list' && /^\s/.test(line)) {
      // A continuation line of the last item.
      open.items[open.items.length - 1] += ` ${line.trim()}`
    } else if (open?.kind === 'paragraph') open.lines.push(line.trim())
    else {
      close()
      open = {kind: 'paragraph', lines: [line.trim()]}
    }
  }
  close()
  return out
}

/** Renders the markdown subset; the first `# heading` is also returned as the title. */
export function renderMarkdown(markdown: string): RenderedMarkdown {
  let title: string | undefined
  const body = blocks(markdown).map((block) => {
    switch (block.kind) {
      case 'heading': {
        title ??= block.level === 1 ? block.text : undefined
        const content = inline(block.text)
        // The level is a number from the pattern (1–6), never text from the file.
        return [html`<h1>${content}</h1>`, html`<h2>${content}</h2>`, html`<h3>${content}</h3>`, html`<h4>${content}</h4>`, html`<h5>${content}</h5>`, html`<h6>${content}</h6>`][block.level - 1]
      }
      case 'paragraph':
        return html`<p>${inline(block.lines.join(' '))}</p>`
      case 'list': {
        const items = block.items.map((item) => html`<li>${inline(item)}</li>`)
        return block.ordered ? html`<ol>${items}</ol>` : html`<ul>${items}</ul>`
      }
      case 'quote':
        return html`<blockquote><p>${inline(block.lines.join(' '))}</p></blockquote>`
      case 'code':
        return html`<pre><code>${block.lines.join('\n')}</code></pre>`
      case 'rule':
        return html`<hr>`
    }
  })
  return {title, body: join(body, '\n')}
}
