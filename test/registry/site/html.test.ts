import {describe, expect, it} from 'vitest'
import {clip, escapeText, html, join, raw, safeHttpUrl} from '../../../src/registry/site/html.js'

describe('site html', () => {
  it('escapes every interpolated value and keeps the literal markup', () => {
    const name = `<script>alert("x")</script>'&\``
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;&#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;&#96;</p>',
    )
  })
  it('nests fragments without escaping them twice, joins arrays, renders nothing for null, undefined and false', () => {
    const items = ['a&b', 'c'].map((x) => html`<li>${x}</li>`)
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.value).toBe('<ul><li>a&amp;b</li><li>c</li></ul>0')
    expect(join([html`<b>1</b>`, '<2>'], ', ').value).toBe('<b>1</b>, &lt;2&gt;')
    expect(html`${raw('<hr>')}`.value).toBe('<hr>')
  })
  it('drops bidi controls so text reads as it is stored', () => {
    expect(escapeText('abc\u202Etxt.exe\u2066x\u2069\u200F')).toBe('abctxt.exex')
  })
  it('clips long text at a code point with an ellipsis', () => {
    expect(clip('short', 10)).toBe('short')
    expect(clip('x'.repeat(16_384), 100)).toHaveLength(100)
    expect(clip('😀'.repeat(5), 3)).toBe('😀😀…')
  })
  it('links only absolute http(s) URLs', () => {
    expect(safeHttpUrl('https://a.example/p?q=1')).toBe('https://a.example/p?q=1')
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull()
    expect(safeHttpUrl('JaVaScRiPt:alert(1)')).toBeNull()
    expect(safeHttpUrl('data:text/html,<script>')).toBeNull()
    expect(safeHttpUrl('/relative')).toBeNull()
    expect(safeHttpUrl(42)).toBeNull()
    expect(safeHttpUrl(`https://a.example/${'x'.repeat(3000)}`)).toBeNull()
  })
})
