import {spawn, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {parseFrontmatter} from '../../../src/standard/frontmatter.js'
import {cliCommandLine, cliEnv, json, runCli, spawnCli} from '../../support/cli.js'
import {makeRepo} from '../../standard/fixtures.js'
import {serveProject, type ServedProject} from './project.js'

let project: ServedProject
beforeAll(async () => {
  project = await serveProject()
})
afterAll(async () => {
  await project?.stop()
})

const card = (id: string) => parseFrontmatter(project.repo.read(`.mesh/team/${id}.md`))
const cardExists = (id: string) => existsSync(join(project.repo.root, `.mesh/team/${id}.md`))

describe('mesh team list', () => {
  it('prints the roster as a table, and as JSON with --json', async () => {
    project.repo.write('.mesh/team/broken.md', 'no frontmatter here\n')
    try {
      const table = await project.mesh(['team', 'list'])
      expect(table.code).toBe(0)
      const lines = table.stdout.trim().split('\n')
      expect(lines[0].split(/\s{2,}/)).toEqual(['ID', 'TITLE', 'CLIENT', 'MODEL', 'EXPOSURE', 'ACCESS', 'PROBLEM'])
      // issue 19: the level its turns run at on this machine (the base team's default for the architect).
      expect(lines.find((line) => line.startsWith('architect'))?.split(/\s{2,}/)).toEqual(['architect', 'Coordinating architect', 'claude', 'opus', 'internal', 'read', '—'])
      expect(lines.find((line) => line.startsWith('broken'))).toMatch(/frontmatter/)

      // -C finds the project from anywhere.
      const listed = json(await runCli(['team', 'list', '--json', '-C', project.repo.root], {cwd: '/'}))
      expect(listed.members.map((m: {id: string}) => m.id)).toEqual(['architect', 'broken'])
      expect(listed.members[0]).toMatchObject({id: 'architect', title: 'Coordinating architect', client: 'claude', model: 'opus', exposure: 'internal', access: 'read', problem: null})
    } finally {
      project.repo.remove('.mesh/team/broken.md')
    }
  })
})

describe('mesh team add', () => {
  it('creates a member from flags and a prompt file, and show prints it back', async () => {
    const promptFile = join(project.repo.root, 'reviewer-prompt.md')
    writeFileSync(promptFile, 'You review every change.\n\nBe brief.\n')
    const added = await project.mesh(['team', 'add', 'reviewer', '--title', 'Code reviewer', '--model', 'sonnet', '--context', 'architecture, stack,architecture', '--effort', 'high', '--prompt-file', promptFile])
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toMatch(/^Added reviewer \(\.mesh\/team\/reviewer\.md\)\./)
    expect(added.stdout).not.toMatch(/team expose/)
    expect(card('reviewer').data).toEqual({id: 'reviewer', title: 'Code reviewer', client: 'claude', model: 'sonnet', context: ['architecture', 'stack'], exposure: 'internal', effort: 'high'})
    expect(card('reviewer').body).toBe('You review every change.\n\nBe brief.\n')

    const shown = await project.mesh(['team', 'show', 'reviewer'])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toMatch(/^reviewer {2}Code reviewer\n/)
    expect(shown.stdout).toMatch(/ {2}context {2}architecture, stack\n/)
    expect(shown.stdout).toMatch(/ {2}effort {3}high\n/)
    expect(shown.stdout.trimEnd().endsWith('You review every change.\n\nBe brief.')).toBe(true)
    const shownJson = json(await project.mesh(['team', 'show', 'reviewer', '--json']))
    expect(shownJson).toMatchObject({id: 'reviewer', title: 'Code reviewer', model: 'sonnet', effort: 'high', prompt: 'You review every change.\n\nBe brief.\n', problem: null})
  })

  it('reads the prompt from stdin with --prompt-file -', async () => {
    const added = json(await project.mesh(['team', 'add', 'piper', '--title', 'Piper', '--prompt-file', '-', '--json'], {input: 'From a pipe.\n'}))
    expect(added).toMatchObject({id: 'piper', prompt: 'From a pipe.\n'})
    expect(card('piper').body).toBe('From a pipe.\n')
  })

  it('drafts a member from free text; the id argument and flags win over the draft', async () => {
    const drafted = json(await project.mesh(['team', 'add', '--from-text', 'Release notes writer. Reads the product and stack context.', '--json']))
    expect(drafted).toMatchObject({id: 'release-notes-writer', title: 'Release notes writer', context: ['product', 'stack'], exposure: 'internal', client: 'claude', model: 'opus'})
    expect(card('release-notes-writer').body).toBe('Release notes writer. Reads the product and stack context.\n')

    const named = await project.mesh(['team', 'add', 'helpdesk', '--from-text', 'Answers partner questions, exposed to partners.', '--title', 'Help desk', '--model', 'haiku'])
    expect(named.code, named.stderr).toBe(0)
    expect(card('helpdesk').data).toMatchObject({id: 'helpdesk', title: 'Help desk', model: 'haiku', exposure: 'external'})
    // An exposed member: the output says how to get the token, and never contains it.
    const token = project.tokens().helpdesk
    expect(token).toMatch(/^mtk_/)
    expect(named.stdout).toContain('`mesh team expose helpdesk` prints its member token')
    expect(named.stdout).not.toContain(token)
    expect(named.stdout).toContain(`card     ${project.url}/team/helpdesk/.well-known/agent.json`)

    // --exposure wins over a draft that reads as exposed.
    expect(json(await project.mesh(['team', 'add', 'quiet', '--from-text', 'Exposed to nobody.', '--exposure', 'internal', '--json']))).toMatchObject({id: 'quiet', exposure: 'internal'})
    expect(project.tokens()).not.toHaveProperty('quiet')
  })

  it('drafts "never expose" and its kin as internal: no token is made (issue 19)', async () => {
    for (const [id, text] of [
      ['sentinel', 'Security sentinel. Reads every change for secrets. Never expose it.'],
      ['keeper', 'Key keeper. Do not expose this member.'],
      ['vault', 'Vault reader, internal only.'],
    ]) {
      expect(json(await project.mesh(['team', 'add', id, '--from-text', text, '--json']))).toMatchObject({id, exposure: 'internal'})
      expect(card(id).data.exposure).toBe('internal')
      expect(project.tokens()).not.toHaveProperty(id)
    }
  })

  it('refuses an existing id (409, exit 1) and malformed input (exit 2) before writing', async () => {
    const again = await project.mesh(['team', 'add', 'architect', '--title', 'Another'])
    expect(again.code).toBe(1)
    expect(again.errorText).toMatch(/Team member architect already exists/)
    expect(json(await project.mesh(['team', 'add', 'architect', '--title', 'Another', '--json'])).error.code).toBe('member_exists')

    const badId = await project.mesh(['team', 'add', 'Bad_Id', '--title', 'X', '--json'])
    expect(badId.code).toBe(2)
    expect(json(badId).error).toMatchObject({code: 'usage_bad_member_id', field: 'id'})
    const noTitle = await project.mesh(['team', 'add', 'notitle'])
    expect(noTitle.code).toBe(2)
    expect(noTitle.errorText).toMatch(/--title/)
    const noId = await project.mesh(['team', 'add', '--title', 'Nameless'])
    expect(noId.code).toBe(2)
    const badEffort = await project.mesh(['team', 'add', 'effortful', '--title', 'E', '--effort', 'huge', '--json'])
    expect(badEffort.code).toBe(2)
    expect(json(badEffort).error.code).toBe('usage_bad_effort')
    const noFile = await project.mesh(['team', 'add', 'nofile', '--title', 'N', '--prompt-file', join(project.repo.root, 'missing.md'), '--json'])
    expect(noFile.code).toBe(2)
    expect(json(noFile).error.code).toBe('usage_prompt_file')
    const both = await project.mesh(['team', 'add', 'both', '--from-text', 'x', '--prompt-file', 'y'])
    expect(both.code).toBe(2)
    for (const id of ['notitle', 'effortful', 'nofile', 'both']) expect(cardExists(id)).toBe(false)
  })
})

describe('mesh team show', () => {
  it('an unknown member is 404: exit 1 with the daemon message; a bad id is a usage error', async () => {
    const unknown = await project.mesh(['team', 'show', 'nobody'])
    expect(unknown.code).toBe(1)
    expect(unknown.errorText).toMatch(/No team member nobody/)
    expect(json(await project.mesh(['team', 'show', 'nobody', '--json'])).error.code).toBe('member_not_found')
    const bad = await project.mesh(['team', 'show', '..'])
    expect(bad.code).toBe(2)
    expect(bad.errorText).toMatch(/A member id is a lowercase letter/)
  })
})

describe('mesh team edit', () => {
  it('patches only the given fields, keeps the prompt, and an empty value removes client, model or effort', async () => {
    await project.mesh(['team', 'add', 'editor', '--title', 'Editor', '--effort', 'low', '--prompt-file', '-'], {input: 'Keep  me\r\nexactly.\n'})
    const edited = await project.mesh(['team', 'edit', 'editor', '--title', 'Chief editor', '--context', 'product', '--effort', ''])
    expect(edited.code, edited.stderr).toBe(0)
    expect(edited.stdout).toMatch(/^Updated editor \(title, context, effort\)\./)
    expect(card('editor').data).toEqual({id: 'editor', title: 'Chief editor', client: 'claude', model: 'opus', context: ['product'], exposure: 'internal'})
    expect(card('editor').body).toBe('Keep  me\r\nexactly.\n')

    const cleared = json(await project.mesh(['team', 'edit', 'editor', '--model', '', '--context', '', '--json']))
    expect(cleared).toMatchObject({id: 'editor', model: null, context: []})
    expect(card('editor').data).not.toHaveProperty('model')

    const prompt = json(await project.mesh(['team', 'edit', 'editor', '--prompt-file', '-', '--json'], {input: 'New prompt.\n'}))
    expect(prompt.prompt).toBe('New prompt.\n')
  })

  it('refuses an edit with nothing to change (exit 2), an unknown member (exit 1) and an empty title (exit 2)', async () => {
    const nothing = await project.mesh(['team', 'edit', 'architect', '--json'])
    expect(nothing.code).toBe(2)
    expect(json(nothing).error.code).toBe('usage_nothing_to_change')
    const unknown = await project.mesh(['team', 'edit', 'nobody', '--title', 'X', '--json'])
    expect(unknown.code).toBe(1)
    expect(json(unknown).error.code).toBe('member_not_found')
    expect(cardExists('nobody')).toBe(false)
    const emptyTitle = await project.mesh(['team', 'edit', 'architect', '--title', ''])
    expect(emptyTitle.code).toBe(2)
    const badId = await project.mesh(['team', 'edit', 'UPPER', '--title', 'X'])
    expect(badId.code).toBe(2)
  })
})

/** util-linux `script` runs a command on a pseudo-terminal, so the question can be answered for real. */
const hasScript = spawnSync('script', ['--version'], {stdio: 'ignore'}).status === 0

function removeOnTerminal(id: string, answer: string): Promise<{code: number | null; screen: string}> {
  return new Promise((resolve, reject) => {
    // CI='' lets mesh see the terminal and ask.
    const child = spawn('script', ['-qec', cliCommandLine(['team', 'remove', id]), '/dev/null'], {cwd: project.repo.root, env: cliEnv({CI: ''}), stdio: ['pipe', 'pipe', 'pipe']})
    let screen = ''
    child.stdout.on('data', (chunk) => {
      screen += String(chunk)
      // Answer once the question is on the screen, not before.
      if (screen.includes('[y/N]') && !child.stdin.writableEnded) child.stdin.end(answer)
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({code, screen}))
  })
}

describe('mesh team remove', () => {
  it('in a pipe requires --yes (exit 2) and removes nothing; with --yes removes the card', async () => {
    await project.mesh(['team', 'add', 'doomed', '--title', 'Doomed'])
    const refused = await project.mesh(['team', 'remove', 'doomed'])
    expect(refused.code).toBe(2)
    expect(refused.errorText).toMatch(/--yes/)
    expect(cardExists('doomed')).toBe(true)
    const removed = await project.mesh(['team', 'remove', 'doomed', '--yes'])
    expect(removed.code).toBe(0)
    expect(removed.stdout).toMatch(/Removed doomed/)
    expect(cardExists('doomed')).toBe(false)
    expect(json(await project.mesh(['team', 'list', '--json'])).members.map((m: {id: string}) => m.id)).not.toContain('doomed')
  })

  it('--json with --yes answers {id, deleted}; an unknown member is exit 1', async () => {
    await project.mesh(['team', 'add', 'doomed2', '--title', 'Doomed'])
    expect(json(await project.mesh(['team', 'remove', 'doomed2', '--yes', '--json']))).toEqual({id: 'doomed2', deleted: true})
    const unknown = await project.mesh(['team', 'remove', 'nobody', '--yes'])
    expect(unknown.code).toBe(1)
    expect(unknown.errorText).toMatch(/No team member nobody/)
    expect((await project.mesh(['team', 'remove', 'Nope!', '--yes'])).code).toBe(2)
  })

  it.runIf(hasScript)('on a terminal asks first: no keeps the card, yes removes it', async () => {
    await project.mesh(['team', 'add', 'asked', '--title', 'Asked'])
    const kept = await removeOnTerminal('asked', 'n\n')
    expect(kept.screen).toMatch(/Remove asked \(Asked\)\? Its card \.mesh\/team\/asked\.md is deleted\. \[y\/N\]/)
    expect(kept.code).toBe(1)
    expect(kept.screen).toMatch(/Kept asked: nothing was removed/)
    expect(cardExists('asked')).toBe(true)
    const gone = await removeOnTerminal('asked', 'y\n')
    expect(gone.code).toBe(0)
    expect(gone.screen).toMatch(/Removed asked/)
    expect(cardExists('asked')).toBe(false)
  })
})

describe('mesh team without a daemon', () => {
  it('every verb that writes names mesh serve and exits 1', async () => {
    const repo = makeRepo()
    try {
      for (const args of [['add', 'x1', '--title', 'X'], ['edit', 'architect', '--title', 'X'], ['remove', 'architect', '--yes'], ['expose', 'architect'], ['rotate', 'architect'], ['revoke', 'architect']]) {
        const result = await runCli(['team', ...args], {cwd: repo.root})
        expect(result.code, args.join(' ')).toBe(1)
        expect(result.errorText).toMatch(/No daemon serves this project.*`mesh serve`/)
      }
      const asJson = await runCli(['team', 'add', 'x1', '--title', 'X', '--json', '--dir', repo.root])
      expect(json(asJson).error.code).toBe('daemon_not_running')
      expect(existsSync(join(repo.root, '.mesh/team/x1.md'))).toBe(false)
    } finally {
      repo.cleanup()
    }
  })

  it('list and show read the cards from disk, say so, and answer as the daemon does', async () => {
    const repo = makeRepo({'.mesh/team/broken.md': 'no frontmatter here\n'})
    try {
      const table = await runCli(['team', 'list'], {cwd: repo.root})
      expect(table.code, table.stderr).toBe(0)
      expect(table.stderr).toBe('note: no daemon serves this project; read from the files on disk (.mesh/team/)\n')
      expect(table.stdout.split('\n').find((line) => line.startsWith('architect'))?.split(/\s{2,}/)).toEqual(['architect', 'Coordinating architect', 'claude', 'opus', 'internal', 'read', '—'])
      const fromFiles = json(await runCli(['team', 'list', '--json'], {cwd: repo.root}))
      expect(fromFiles.source).toBe('files')
      expect(fromFiles.members.find((m: {id: string}) => m.id === 'broken').problem).toMatch(/frontmatter/)

      const shown = await runCli(['team', 'show', 'architect'], {cwd: repo.root})
      expect([shown.code, shown.stderr]).toEqual([0, 'note: no daemon serves this project; read from the files on disk (.mesh/team/architect.md)\n'])
      expect(shown.stdout).toMatch(/^architect {2}Coordinating architect\n/)
      expect(shown.stdout.trimEnd().endsWith('You coordinate.')).toBe(true)
      const card = json(await runCli(['team', 'show', 'architect', '--json'], {cwd: repo.root}))
      expect(card).toMatchObject({id: 'architect', source: 'files', prompt: '\nYou coordinate.\n'})
      const unknown = await runCli(['team', 'show', 'nobody', '--json'], {cwd: repo.root})
      expect([unknown.code, json(unknown).error.code]).toEqual([1, 'member_not_found'])

      // The daemon, once it runs, answers the same.
      const server = spawnCli(['serve', '--port', '0', '--json'], {cwd: repo.root})
      try {
        expect((await server.nextJson()).event).toBe('listening')
        const fromDaemon = json(await runCli(['team', 'list', '--json'], {cwd: repo.root}))
        expect(fromDaemon).toEqual({...fromFiles, source: 'daemon'})
        const viaDaemon = await runCli(['team', 'show', 'architect', '--json'], {cwd: repo.root})
        expect([viaDaemon.stderr, json(viaDaemon)]).toEqual(['', {...card, source: 'daemon'}])
      } finally {
        await server.stop()
      }
    } finally {
      repo.cleanup()
    }
  })
})

describe('mesh team edit --client', () => {
  it("refuses a client this machine does not know at once, before the card is written; a client of the user's clients file is known (issue 19)", async () => {
    const config = mkdtempSync(join(tmpdir(), 'mesh-config-'))
    mkdirSync(join(config, 'mesh'), {mode: 0o700})
    writeFileSync(join(config, 'mesh', 'clients.yaml'), 'clients:\n  mine:\n    command: ["mine", "--model", "{model}"]\n', {mode: 0o600})
    const served = await serveProject({}, {env: {XDG_CONFIG_HOME: config}})
    try {
      const before = served.repo.read('.mesh/team/architect.md')
      const typo = await served.mesh(['team', 'edit', 'architect', '--client', 'claud', '--json'])
      expect(typo.code).toBe(1)
      expect(json(typo).error).toMatchObject({code: 'unknown_client', field: 'client', message: expect.stringMatching(/^Unknown client "claud": this machine knows claude, codex, gemini, mine, script/)})
      expect(served.repo.read('.mesh/team/architect.md')).toBe(before)
      const added = await served.mesh(['team', 'add', 'reviewer', '--title', 'Reviewer', '--client', 'nope'])
      expect([added.code, added.errorText]).toEqual([1, expect.stringMatching(/Unknown client "nope"/)])
      expect(existsSync(join(served.repo.root, '.mesh/team/reviewer.md'))).toBe(false)

      const mine = json(await served.mesh(['team', 'edit', 'architect', '--client', 'mine', '--json']))
      expect(mine).toMatchObject({id: 'architect', client: 'mine'})
    } finally {
      await served.stop()
      rmSync(config, {recursive: true, force: true})
    }
  })
})

