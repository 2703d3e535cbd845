/**
 * Issue 18: the script client's script (a member's `model`: `.mesh/scripts/
 * <name>.yaml`, or a path inside the repository) cannot leave its folder nor
 * follow a symbolic link at any step. Each attack points the script at a file
 * outside the project that would print LEAKED; the turn must fail with a
 * sentence and print nothing of it. Through the daemon's HTTP routes and the
 * real script client process.
 */
import {mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative} from 'node:path'
import {stringify} from 'yaml'
import {afterEach, describe, expect, it} from 'vitest'
import {frontmatter} from '../../../standard/fixtures.js'
import {startHarness, type DaemonHarness} from '../../harness.js'
import {recordEvents, type EventRecorder} from '../../watch/recorder.js'

let harness: DaemonHarness | undefined
let events: EventRecorder | undefined
let outside: string | undefined
afterEach(async () => {
  events?.stop()
  await harness?.close()
  if (outside) rmSync(outside, {recursive: true, force: true})
  harness = events = outside = undefined
})

const LEAK = {replies: [], default: {say: 'LEAKED'}}
const INSIDE = {replies: [], default: {say: 'inside'}}

const card = (model: string) => frontmatter({id: 'architect', title: 'Architect', client: 'script', model, context: [], exposure: 'internal'}, '\nYou coordinate.\n')

/** A project whose architect is a script member with the `model` chosen, and a folder outside it holding a script that leaks. */
async function start(model: (root: string, away: string) => string, arrange: (root: string, away: string) => void) {
  harness = await startHarness()
  outside = mkdtempSync(join(tmpdir(), 'mesh-outside-'))
  writeFileSync(join(outside, 'architect.yaml'), stringify(LEAK))
  const root = harness.repo.root
  mkdirSync(join(root, '.mesh', 'scripts'), {recursive: true})
  harness.repo.write('.mesh/team/architect.md', card(model(root, outside)))
  arrange(root, outside)
  events = recordEvents(harness.running.daemon.context.events, root)
}

async function turn() {
  const sent = await harness!.call('POST', '/chat/send', {auth: true, body: JSON.stringify({text: 'hello', member: 'architect'})})
  expect(sent.status).toBe(202)
  const final = await events!.waitFor((event) => event.type === 'chat.assistant.final' && event.data.turn_id === sent.body.turn_id, 'the final')
  const printed = events!.of('chat.assistant.delta').filter((event) => event.data.turn_id === sent.body.turn_id).map((event) => event.data.text)
  return {final: final.data, printed}
}

describe("the script client's script", () => {
  it.each([
    ['a path that leaves the repository', (root: string, away: string) => relative(root, join(away, 'architect.yaml')), () => {}, /is outside the project/],
    ['an absolute path outside the repository', (_root: string, away: string) => join(away, 'architect.yaml'), () => {}, /is outside the project/],
    ['.mesh/scripts/<name>.yaml that is a link to a file outside', () => 'architect', (root: string, away: string) => symlinkSync(join(away, 'architect.yaml'), join(root, '.mesh/scripts/architect.yaml')), /\.mesh\/scripts\/architect\.yaml is a symbolic link/],
    ['.mesh/scripts that is a link to a folder outside', () => 'architect', (root: string, away: string) => {
      rmSync(join(root, '.mesh/scripts'), {recursive: true})
      symlinkSync(away, join(root, '.mesh/scripts'))
    }, /\/\.mesh\/scripts is a symbolic link/],
    ['a repository path through a linked folder', () => 'demo/link/architect.yaml', (root: string, away: string) => {
      mkdirSync(join(root, 'demo'))
      symlinkSync(away, join(root, 'demo/link'))
    }, /\/demo\/link is a symbolic link/],
    ['a link to another script inside the repository', () => 'architect', (root: string) => {
      writeFileSync(join(root, 'inside.yaml'), stringify(INSIDE))
      symlinkSync(join(root, 'inside.yaml'), join(root, '.mesh/scripts/architect.yaml'))
    }, /is a symbolic link/],
  ])('%s: the turn fails with a sentence and nothing of the script is played', async (_name, model, arrange, sentence) => {
    await start(model, arrange)
    const {final, printed} = await turn()
    expect(final).toMatchObject({status: 'failed', reason: 'spawn', detail: expect.stringMatching(sentence)})
    expect(final.detail).toMatch(/^the script of architect cannot be used: /)
    expect(printed.join('\n')).not.toContain('LEAKED')
    expect(readdirSync(join(harness!.repo.root, '.mesh', '.runtime', 'chat')).filter((name) => name.startsWith('private-'))).toEqual([])
  })

  it('inside its folder, as a plain file, is played (a path of the repository too)', async () => {
    await start(() => 'architect', (root) => {
      writeFileSync(join(root, '.mesh/scripts/architect.yaml'), stringify(INSIDE))
    })
    expect((await turn()).final).toMatchObject({status: 'done', text: 'inside'})
    harness!.repo.write('demo/architect.yaml', stringify({replies: [], default: {say: 'from the repository'}}))
    harness!.repo.write('.mesh/team/architect.md', card('demo/architect.yaml'))
    expect((await turn()).final).toMatchObject({status: 'done', text: 'from the repository'})
  })
})
