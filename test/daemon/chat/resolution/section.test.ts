import {describe, expect, it} from 'vitest'
import {asSectionContent, withResolution} from '../../../../src/daemon/chat/resolution/section.js'

const BODY = '\n## Scope\n\nWhat changes.\n\n## Done when\n\n- Tests pass.\n'

describe('the ## Resolution section', () => {
  it('is appended after the body, which stays byte for byte', () => {
    expect(withResolution(BODY, 'Shipped.')).toBe(`${BODY}\n## Resolution\n\nShipped.\n`)
    expect(withResolution('no newline', 'Shipped.')).toBe('no newline\n\n## Resolution\n\nShipped.\n')
    expect(withResolution('', 'Shipped.')).toBe('\n## Resolution\n\nShipped.\n')
  })

  it('replaces an existing section up to the next heading of level 1 or 2, keeping what follows', () => {
    const body = '\n## Scope\n\nS.\n\n## Resolution\n\nOld.\n\n### Detail\n\nOld too.\n\n## Files\n\n- a.ts\n'
    expect(withResolution(body, 'New.')).toBe('\n## Scope\n\nS.\n\n## Resolution\n\nNew.\n\n## Files\n\n- a.ts\n')
    expect(withResolution('\n## Resolution\n\nOld.\n', 'New.')).toBe('\n## Resolution\n\nNew.\n')
  })

  it('does not take a heading inside a code fence for a section', () => {
    const body = '\n## Scope\n\n```md\n## Resolution\n```\n'
    expect(withResolution(body, 'New.')).toBe(`${body}\n## Resolution\n\nNew.\n`)
  })

  it('keeps a CRLF body CRLF', () => {
    expect(withResolution('\r\n## Scope\r\n\r\nS.\r\n', 'a\nb')).toBe('\r\n## Scope\r\n\r\nS.\r\n\r\n## Resolution\r\n\r\na\r\nb\r\n')
  })

  it('turns the message\'s top headings into ### and closes a fence it leaves open', () => {
    expect(asSectionContent('# Done\n\n## Notes\n\n### Kept\n\n```\n## code\n```\n#hashtag')).toBe('### Done\n\n### Notes\n\n### Kept\n\n```\n## code\n```\n#hashtag')
    expect(asSectionContent('```ts\nconst a = 1')).toBe('```ts\nconst a = 1\n```')
  })
})
