/**
 * The protocol text the daemon gives agents shows each marker in a form its
 * own parser accepts (issue 19, deliverable 8): every example is cut out of
 * the rendered system prompt as an agent would copy it — from its opening
 * "```mesh-<kind>" to the next fence — and fed to parseMarkers.
 */
import {describe, expect, it} from 'vitest'
import {parseMarkers} from '../../../src/daemon/chat/markers.js'
import {systemPrompt, teammateCatalog} from '../../../src/daemon/chat/prompt.js'
import {readCardText} from '../../../src/daemon/team/cards.js'

const card = (id: string) => readCardText(id, `---\nid: ${id}\ntitle: The ${id}\nclient: claude\nmodel: opus\ncontext: []\nexposure: internal\n---\nYou are the ${id}. You do ${id} work.\n`)
const roster = ['architect', 'developer', 'git-manager'].map(card)
/** The system prompt a member's first turn is given, as turn.ts builds it. */
const promptOf = (id: string, members = roster) => systemPrompt({member: members.find((m) => m.id === id)!, files: [], catalog: teammateCatalog(id, members), boundaries: []})

/** The example of `kind` as it stands in the text: from its opening fence to the fence that closes it. */
function exampleOf(text: string, kind: string): string {
  const start = text.indexOf('```mesh-' + kind)
  expect(start, `the protocol text shows mesh-${kind}`).not.toBe(-1)
  const close = text.indexOf('```', start + 3)
  expect(close, `mesh-${kind} is closed`).not.toBe(-1)
  return text.slice(start, close + 3)
}

/** What the daemon's consumer of each marker needs (delegation, resolution, become, agent commits). */
const NEEDS: Record<string, string[]> = {delegate: ['member', 'brief'], report: ['status', 'summary'], become: ['member'], commit: ['subject', 'files']}

describe('the markers of the protocol text', () => {
  it.each(['delegate', 'report', 'become', 'commit'])('mesh-%s as shown parses as that marker, with the fields its consumer reads', (kind) => {
    const example = exampleOf(promptOf('git-manager'), kind)
    const {markers, text} = parseMarkers(example)
    expect(markers).toHaveLength(1)
    expect(markers[0].kind).toBe(kind)
    expect(Object.keys((markers[0] as {data: Record<string, unknown>}).data)).toEqual(expect.arrayContaining(NEEDS[kind]))
    // Nothing of the example is left as text: it was read whole.
    expect(text).toBe('')
  })

  it('shows mesh-commit only to a member that may commit: the git-manager, or anyone on a team without one', () => {
    expect(promptOf('developer')).not.toContain('```mesh-commit')
    expect(promptOf('developer')).toContain('the git-manager commits them for you')
    const noGitManager = roster.filter((member) => member.id !== 'git-manager')
    expect(parseMarkers(exampleOf(promptOf('developer', noGitManager), 'commit')).markers[0].kind).toBe('commit')
  })

  it('shows the deployer a deploy report whose fields deploy.completed carries (issue 20), and no one else', () => {
    const team = [...roster, card('deployer')]
    const text = promptOf('deployer', team)
    const deploy = text.slice(text.indexOf('After a release'))
    const {markers} = parseMarkers(exampleOf(deploy, 'report'))
    expect(markers[0]).toMatchObject({kind: 'report', data: {status: 'done', module: expect.any(String), url: expect.any(String), version: expect.any(String), sha: expect.any(String)}})
    expect(promptOf('developer', team)).not.toContain('After a release')
  })

  it('every example in the whole text is read as a marker, none as text', () => {
    const text = promptOf('git-manager')
    const {markers, text: rest} = parseMarkers(text)
    expect(markers.map((marker) => marker.kind)).toEqual(['delegate', 'report', 'become', 'commit'])
    expect(rest).not.toContain('```mesh-')
  })
})
