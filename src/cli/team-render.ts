/**
 * How the `mesh team` commands show members on a terminal. Card text comes
 * from files anyone in the repository may have written, so every value goes
 * through `printable` (no control characters reach the terminal). Member
 * tokens are never part of a member: only `expose` and `rotate` print one.
 */
import {printable} from '../client/printable.js'
import type {MemberCard, MemberSummary} from '../daemon/team/cards.js'

const dash = (value: string | null | undefined) => (value === null || value === undefined || value === '' ? '—' : printable(value))

/** Where an exposed member's public card is served (docs/daemon-api.md, Team). */
export const agentCardUrl = (daemonUrl: string, id: string) => `${daemonUrl}/team/${id}/.well-known/agent.json`

/** The roster as aligned columns (problem last, so a long one does not push the others); ACCESS when the daemon said it (issue 19). */
export function memberTable(members: Array<MemberSummary & {access?: string | null}>): string[] {
  const withAccess = members.some((m) => m.access !== undefined)
  const header = ['ID', 'TITLE', 'CLIENT', 'MODEL', 'EXPOSURE', ...(withAccess ? ['ACCESS'] : []), 'PROBLEM']
  const rows = members.map((m) => [dash(m.id), dash(m.title), dash(m.client), dash(m.model), m.exposure, ...(withAccess ? [m.access === null ? 'refused' : dash(m.access)] : []), dash(m.problem)])
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column].length)))
  return [header, ...rows].map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ').trimEnd())
}

/** `<id>  <title>`, then the fields, one per line; `daemonUrl` adds the card address of an exposed member. */
export function memberFields(member: MemberSummary, daemonUrl?: string): string[] {
  const fields: Array<[string, string]> = [
    ['client', dash(member.client)],
    ['model', dash(member.model)],
    ['context', member.context.length ? member.context.map(printable).join(', ') : '—'],
    ['exposure', member.exposure],
  ]
  if (member.effort !== undefined) fields.push(['effort', dash(member.effort)])
  if (member.exposure === 'external' && daemonUrl && !member.problem) fields.push(['card', agentCardUrl(daemonUrl, member.id)])
  fields.push(['file', dash(member.path)])
  if (member.problem) fields.push(['problem', dash(member.problem)])
  return [`${member.id}  ${dash(member.title)}`, ...fields.map(([name, value]) => `  ${name.padEnd(9)}${value}`)]
}

/** The fields, then the prompt (its lines kept, control characters made harmless). */
export function memberDetail(member: MemberCard, daemonUrl?: string): string[] {
  const prompt = member.prompt.trim()
  return [...memberFields(member, daemonUrl), '', ...(prompt ? prompt.split(/\r?\n/).map(printable) : ['(no prompt)'])]
}
