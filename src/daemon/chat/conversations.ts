/**
 * What the daemon remembers of each conversation across restarts: its
 * member, the session its client confirmed (sessions.ts), how many turns it
 * had and a `become` waiting for the next turn — one JSON file per conv under
 * `.mesh/.runtime/chat/convs/` (never committed), written atomically, never
 * read or written through a link (issue 18).
 */
import {randomUUID} from 'node:crypto'
import {listContainedFolder, readContainedText, writeContainedFile} from '../../lib/contained-files.js'
import type {DaemonContext} from '../context.js'
import {RUNTIME_DIR} from '../constants.js'
import {CHAT_RUNTIME_DIR, CONV_PATTERN} from './constants.js'

export interface StoredConversation {
  conv: string
  member: string
  /** The uuid the next fresh session starts with (claude's `--session-id`); a new one after every fresh start. */
  session_id: string
  /** The session the member's client confirmed it runs (issue 19): the next turn resumes it. */
  client_session?: {client: string; id: string} | null
  /** Said in the thread when the next turn starts: why it starts a fresh session. */
  session_note?: string
  turns: number
  created_at: string
  last_final_at: string | null
  /** spec v36 `become`: the profile of the next turn only. */
  become_next?: string
}

/** Relative to `.mesh/`. */
const CONVS_DIR = `${RUNTIME_DIR}/${CHAT_RUNTIME_DIR}/convs`

export function newConversation(conv: string, member: string, now: number): StoredConversation {
  return {conv, member, session_id: randomUUID(), turns: 0, created_at: new Date(now).toISOString(), last_final_at: null}
}

/** Every stored conversation; a file that is not one is skipped and said in the debug stream. */
export async function loadConversations(context: Pick<DaemonContext, 'meshPath' | 'debug'>): Promise<StoredConversation[]> {
  const entries = await listContainedFolder(context.meshPath(), CONVS_DIR).catch((error: Error) => {
    context.debug.log({lvl: 'warn', tag: 'chat', msg: `${CONVS_DIR} cannot be read (${error.message}); no conversation resumed`})
    return []
  })
  const convs: StoredConversation[] = []
  for (const {name} of entries) {
    if (!name.endsWith('.json')) continue
    try {
      const value = JSON.parse((await readContainedText(context.meshPath(), `${CONVS_DIR}/${name}`)) ?? '') as StoredConversation
      if (!CONV_PATTERN.test(value.conv) || typeof value.member !== 'string' || typeof value.session_id !== 'string') throw new Error('missing conv, member or session_id')
      const turns = Number.isInteger(value.turns) ? value.turns : 0
      // Before issue 19 the id was recorded at once, and only claude resumed: a conv with done turns had its claude session confirmed.
      const client_session = value.client_session === undefined ? (turns > 0 ? {client: 'claude', id: value.session_id} : null) : value.client_session
      convs.push({...value, turns, client_session, last_final_at: value.last_final_at ?? null})
    } catch (error) {
      context.debug.log({lvl: 'warn', tag: 'chat', msg: `.runtime/chat/convs/${name} is not a conversation (${(error as Error).message}); ignored`})
    }
  }
  return convs
}

export async function saveConversation(context: Pick<DaemonContext, 'meshPath'>, conv: StoredConversation): Promise<void> {
  await writeContainedFile(context.meshPath(), `${CONVS_DIR}/${conv.conv}.json`, JSON.stringify(conv, null, 2) + '\n')
}
