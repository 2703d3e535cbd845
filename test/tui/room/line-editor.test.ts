import {describe, expect, it} from 'vitest'
import {applyInput, applyKey, emptyEditor, type EditorKey, type EditorState} from '../../../src/tui/room/line-editor.js'

/** Types a sequence of [input, key] presses; returns the final state and what was submitted. */
function type(presses: [string, EditorKey?][], start: EditorState = emptyEditor()) {
  let state = start
  const submitted: string[] = []
  for (const [input, key] of presses) {
    const result = applyKey(state, input, key ?? {})
    state = result.state
    if (result.submitted !== undefined) submitted.push(result.submitted)
  }
  return {state, submitted}
}

describe('line editor', () => {
  it('inserts at the cursor, moves, deletes and submits', () => {
    const {state, submitted} = type([['helo'], ['', {leftArrow: true}], ['l'], ['', {end: true}], ['!'], ['', {home: true}], ['', {rightArrow: true}], ['', {delete: true}]])
    expect(state).toMatchObject({value: 'ello!', cursor: 0})
    expect(submitted).toEqual([])
    expect(type([['hi'], ['', {return: true}]]).submitted).toEqual(['hi'])
  })

  it('has the readline control keys', () => {
    const start = type([['one two three']]).state
    expect(type([['w', {ctrl: true}]], start).state).toMatchObject({value: 'one two ', cursor: 8})
    expect(type([['a', {ctrl: true}], ['d', {ctrl: true}]], start).state).toMatchObject({value: 'ne two three', cursor: 0})
    expect(type([['', {leftArrow: true}], ['u', {ctrl: true}]], start).state).toMatchObject({value: 'e', cursor: 0})
    expect(type([['a', {ctrl: true}], ['k', {ctrl: true}]], start).state).toMatchObject({value: '', cursor: 0})
    expect(type([['a', {ctrl: true}], ['e', {ctrl: true}]], start).state.cursor).toBe(13)
  })

  it('browses history with ↑/↓ and keeps the draft', () => {
    const {state} = type([['first'], ['', {return: true}], ['second'], ['', {return: true}], ['dra'], ['', {upArrow: true}]])
    expect(state.value).toBe('second')
    const older = type([['', {upArrow: true}], ['', {upArrow: true}]], state).state
    expect(older.value).toBe('first')
    const back = type([['', {downArrow: true}], ['', {downArrow: true}], ['', {downArrow: true}]], older).state
    expect(back).toMatchObject({value: 'dra', cursor: 3})
  })

  it('submits at each line break when text and Enter arrive in one read', () => {
    const typed = type([['draft ']]).state
    const result = applyInput(typed, 'one\rtwo\r\nthr', {})
    expect(result.submitted).toEqual(['draft one', 'two'])
    expect(result.state).toMatchObject({value: 'thr', cursor: 3})
    expect(applyInput(emptyEditor(), 'solo\r', {}).submitted).toEqual(['solo'])
    expect(applyInput(typed, '', {return: true}).submitted).toEqual(['draft '])
  })

  it('ignores navigation-only keys', () => {
    expect(type([['x'], ['', {pageUp: true}], ['', {escape: true}], ['', {tab: true}]]).state.value).toBe('x')
  })
})
