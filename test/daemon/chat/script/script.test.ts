import {describe, expect, it} from 'vitest'
import {fillIn, parseScript, pickReply, type TurnFacts} from '../../../../src/daemon/chat/script/script.js'

const facts: TurnFacts = {conv: 'c-1', member: 'dev', profile: 'dev', turn: 2, session: 's', text: 'Fix the LOGIN', request_ids: ['dlg_1'], anchor: {initiative: 'I1', task: 'T1'}}

describe('the script client’s script', () => {
  it('plays the first reply whose turn and pattern match, else the default', () => {
    const script = parseScript('replies:\n  - {turn: 1, say: first}\n  - {when: "login", say: login}\n  - {say: any}\ndefault: {say: none}\n')
    expect(pickReply(script, facts)?.say).toBe('login')
    expect(pickReply(script, {...facts, turn: 1})?.say).toBe('first')
    expect(pickReply(parseScript('replies: []\ndefault: {say: none}'), facts)?.say).toBe('none')
    expect(pickReply(parseScript('replies: []'), facts)).toBeNull()
  })

  it('fills in the turn’s facts', () => {
    expect(fillIn('{{member}} {{conv}} #{{initiative}} · #{{task}} {{turn}} {{request_ids}} {{ text }} {{unknown}}', facts)).toBe('dev c-1 #I1 · #T1 2 ["dlg_1"] Fix the LOGIN {{unknown}}')
  })

  it('refuses what is not a script', () => {
    expect(() => parseScript('- a')).toThrow(/mapping/)
    expect(() => parseScript('replies: {}')).toThrow(/list/)
    expect(() => parseScript('replies:\n  - {when: "("}')).toThrow()
  })
})
