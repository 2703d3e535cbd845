/**
 * A one-line text editor as a pure state machine, driven by Ink's
 * `useInput` (no extra packages). Kept apart from the component so the
 * editing rules are tested without a terminal.
 */

/** The key flags of Ink's useInput that the editor reads. */
export interface EditorKey {
  return?: boolean
  backspace?: boolean
  delete?: boolean
  leftArrow?: boolean
  rightArrow?: boolean
  upArrow?: boolean
  downArrow?: boolean
  home?: boolean
  end?: boolean
  ctrl?: boolean
  meta?: boolean
  escape?: boolean
  tab?: boolean
  pageUp?: boolean
  pageDown?: boolean
}

export interface EditorState {
  value: string
  /** Cursor position in UTF-16 units, 0..value.length. */
  cursor: number
  /** Submitted lines, oldest first. */
  history: string[]
  /** Index into history while browsing with ↑/↓; history.length when not browsing. */
  historyIndex: number
  /** The line being typed before browsing history started. */
  draft: string
}

export const emptyEditor = (): EditorState => ({value: '', cursor: 0, history: [], historyIndex: 0, draft: ''})

/** Keeps the last lines for ↑/↓; a long session does not grow without bound. */
const HISTORY_LIMIT = 200

/** Result of one key: the new state, and the submitted line when Enter was pressed. */
export interface EditResult {
  state: EditorState
  submitted?: string
}

const set = (state: EditorState, value: string, cursor: number): EditorState => ({...state, value, cursor: Math.max(0, Math.min(cursor, value.length))})

/**
 * Applies one key press. Keys: printable text inserts; Backspace/Delete
 * remove before the cursor (terminals send DEL for Backspace, which Ink
 * reports as `delete`); Ctrl-D deletes under the cursor; ←/→, Home/End,
 * Ctrl-A/Ctrl-E move; Ctrl-U clears to the start, Ctrl-K to the end, Ctrl-W
 * deletes a word; ↑/↓ browse history; Enter submits.
 */
export function applyKey(state: EditorState, input: string, key: EditorKey): EditResult {
  const {value, cursor} = state
  if (key.return) {
    const history = value.trim() === '' || state.history.at(-1) === value ? state.history : [...state.history, value].slice(-HISTORY_LIMIT)
    return {state: {value: '', cursor: 0, history, historyIndex: history.length, draft: ''}, submitted: value}
  }
  if (key.backspace || key.delete) return {state: set(state, value.slice(0, Math.max(0, cursor - 1)) + value.slice(cursor), cursor - 1)}
  if (key.leftArrow) return {state: set(state, value, cursor - 1)}
  if (key.rightArrow) return {state: set(state, value, cursor + 1)}
  if (key.home) return {state: set(state, value, 0)}
  if (key.end) return {state: set(state, value, value.length)}
  if (key.upArrow || key.downArrow) return {state: browse(state, key.upArrow ? -1 : 1)}
  if (key.ctrl) {
    switch (input) {
      case 'a':
        return {state: set(state, value, 0)}
      case 'e':
        return {state: set(state, value, value.length)}
      case 'u':
        return {state: set(state, value.slice(cursor), 0)}
      case 'k':
        return {state: set(state, value.slice(0, cursor), cursor)}
      case 'd':
        return {state: set(state, value.slice(0, cursor) + value.slice(cursor + 1), cursor)}
      case 'w': {
        const start = value.slice(0, cursor).replace(/\S+\s*$/, '').length
        return {state: set(state, value.slice(0, start) + value.slice(cursor), start)}
      }
      default:
        return {state}
    }
  }
  if (key.escape || key.tab || key.pageUp || key.pageDown || key.meta || input === '') return {state}
  const text = input.replace(/[\r\n]/g, '')
  return {state: set(state, value.slice(0, cursor) + text + value.slice(cursor), cursor + text.length)}
}

/**
 * Applies what one read from the terminal delivered. Fast typing, a paste
 * or a key sender (tmux send-keys) can deliver text and Enter together
 * ("hello\r"): each line break submits the line typed so far, as if Enter
 * had been pressed there.
 */
export function applyInput(state: EditorState, input: string, key: EditorKey): {state: EditorState; submitted: string[]} {
  const submitted: string[] = []
  if (key.return || !/[\r\n]/.test(input)) {
    const result = applyKey(state, input, key)
    if (result.submitted !== undefined) submitted.push(result.submitted)
    return {state: result.state, submitted}
  }
  const parts = input.split(/\r\n|\r|\n/)
  let current = state
  parts.forEach((part, index) => {
    if (part !== '') current = applyKey(current, part, {}).state
    if (index < parts.length - 1) {
      const result = applyKey(current, '', {return: true})
      current = result.state
      submitted.push(result.submitted!)
    }
  })
  return {state: current, submitted}
}

function browse(state: EditorState, step: -1 | 1): EditorState {
  const index = Math.max(0, Math.min(state.history.length, state.historyIndex + step))
  if (index === state.historyIndex) return state
  const draft = state.historyIndex === state.history.length ? state.value : state.draft
  const value = index === state.history.length ? draft : state.history[index]
  return {...state, value, cursor: value.length, historyIndex: index, draft}
}
