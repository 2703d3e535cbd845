import {describe, expect, it} from 'vitest'
import {mentionsOf, parseAnchor} from '../../../../src/daemon/chat/resolution/index.js'

describe('parseAnchor', () => {
  it('reads the spec line `→ working on #<init> · #<task>`', () => {
    expect(parseAnchor('→ working on #I1 · #API3')).toEqual({initiative: 'I1', task: 'API3'})
    expect(parseAnchor('Looking around.\n→ working on #INIT-login · #API3\n\nDone.')).toEqual({initiative: 'INIT-login', task: 'API3'})
  })

  it('accepts `->`, a missing initiative, markdown dressing, a closing full stop and a note', () => {
    expect(parseAnchor('-> working on #I1 · #API3')).toEqual({initiative: 'I1', task: 'API3'})
    expect(parseAnchor('→ working on #API3')).toEqual({task: 'API3'})
    expect(parseAnchor('-> Working on #API3.')).toEqual({task: 'API3'})
    expect(parseAnchor('**→ working on #I1 · #API3**')).toEqual({initiative: 'I1', task: 'API3'})
    expect(parseAnchor('> `→ working on #I1•#API3`')).toEqual({initiative: 'I1', task: 'API3'})
    expect(parseAnchor('→ working on #I1 | #API3 — the login form')).toEqual({initiative: 'I1', task: 'API3'})
    expect(parseAnchor('→ working on #API3 (the login form)')).toEqual({task: 'API3'})
    expect(parseAnchor('→ working on #API3 - the login form')).toEqual({task: 'API3'})
    expect(parseAnchor('\r\n→ working on #I1 · #API3\r\n')).toEqual({initiative: 'I1', task: 'API3'})
  })

  it('takes the last anchor line: the one the agent ended on', () => {
    expect(parseAnchor('→ working on #I1 · #API3\nCreated a better task.\n→ working on #I1 · #API4')).toEqual({initiative: 'I1', task: 'API4'})
  })

  it('refuses ids that are not mention tokens and lines that only mention an anchor', () => {
    expect(parseAnchor('→ working on #1abc')).toBeNull()
    expect(parseAnchor('→ working on #A')).toBeNull()
    expect(parseAnchor(`→ working on #${'A'.repeat(33)}`)).toBeNull()
    expect(parseAnchor('→ working on #I1 · API3')).toBeNull()
    expect(parseAnchor('I said → working on #API3 earlier')).toBeNull()
    expect(parseAnchor('working on #API3')).toBeNull()
    expect(parseAnchor('')).toBeNull()
  })
})

describe('mentionsOf', () => {
  it('lists #id mentions in order once, not URL fragments, headings or HTML entities', () => {
    expect(mentionsOf('Fix #API3 and #I1, then #API3 again; see https://x.dev/page#intro and &#x41; ## Heading #b')).toEqual(['API3', 'I1'])
  })
})
