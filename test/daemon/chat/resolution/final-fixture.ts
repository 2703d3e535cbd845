/** Hand-built turn finals for the resolution tests (the shape of src/daemon/chat/types.ts). */
import type {TurnFinal} from '../../../../src/daemon/chat/types.js'

export function turnFinal(overrides: Partial<TurnFinal> = {}): TurnFinal {
  return {
    conv: 'c-0123456789ab',
    turn_id: 't-0123456789ab',
    member: 'developer',
    profile: 'developer',
    status: 'done',
    exit_code: 0,
    text: 'Added the login route.',
    raw: 'Added the login route.',
    markers: [],
    anchor: {initiative: 'I1', task: 'API1'},
    inputs: [{conv: 'c-0123456789ab', member: 'developer', text: 'Do #API1', author: 'operator', origin: 'send'}],
    started_at: '2026-03-04T05:00:00.000Z',
    finished_at: '2026-03-04T05:06:07.890Z',
    ...overrides,
  }
}
