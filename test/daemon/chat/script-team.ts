/** A fixture team of `client: script` members and their scripts, for the chat tests (docs/daemon.md, The script client). */
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {stringify} from 'yaml'
import type {ScriptReply} from '../../../src/daemon/chat/script/script.js'

export interface ScriptMember {
  id: string
  title?: string
  exposure?: 'internal' | 'external'
  context?: string[]
  prompt?: string
  replies: ScriptReply[]
  default?: ScriptReply
  /** The script's stream format (issue 19); text when absent. */
  format?: string
}

/** Writes `.mesh/team/<id>.md` (client script, model = its id) and `.mesh/scripts/<id>.yaml` for each member. */
export function writeScriptTeam(root: string, members: ScriptMember[]): void {
  mkdirSync(join(root, '.mesh', 'team'), {recursive: true})
  mkdirSync(join(root, '.mesh', 'scripts'), {recursive: true})
  for (const member of members) {
    const card = {id: member.id, title: member.title ?? member.id, client: 'script', model: member.id, context: member.context ?? [], exposure: member.exposure ?? 'internal'}
    writeFileSync(join(root, '.mesh', 'team', `${member.id}.md`), `---\n${stringify(card)}---\n${member.prompt ?? `You are ${member.id}. You answer briefly.`}\n`)
    writeScript(root, member.id, member.replies, member.default, member.format)
  }
}

export function writeScript(root: string, id: string, replies: ScriptReply[], fallback?: ScriptReply, format?: string): void {
  writeFileSync(join(root, '.mesh', 'scripts', `${id}.yaml`), stringify({replies, ...(fallback ? {default: fallback} : {}), ...(format ? {format} : {})}))
}

/** A fenced marker block as an agent writes it. */
export const marker = (kind: string, data: unknown) => '```mesh-' + kind + '\n' + JSON.stringify(data) + '\n```'
