import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {json} from '../../support/cli.js'
import {lastWord, serveProject, type ServedProject} from './project.js'

let project: ServedProject
beforeAll(async () => {
  project = await serveProject()
  const added = await project.mesh(['team', 'add', 'consultant', '--title', 'Consultant', '--prompt-file', '-'], {input: 'Answers questions about the project.\n'})
  if (added.code !== 0) throw new Error(added.stderr)
})
afterAll(async () => {
  await project?.stop()
})

const agentCard = (id: string) => fetch(`${project.url}/team/${id}/.well-known/agent.json`)

describe('mesh team expose, rotate, revoke', () => {
  it('expose makes the member external and prints its token as the last word; again prints the same token', async () => {
    expect((await agentCard('consultant')).status).toBe(404)
    const exposed = await project.mesh(['team', 'expose', 'consultant'])
    expect(exposed.code, exposed.stderr).toBe(0)
    const token = lastWord(exposed.stdout)
    expect(token).toMatch(/^mtk_/)
    expect(token).toBe(project.tokens().consultant)
    expect(exposed.stdout).toContain(`its agent card: ${project.url}/team/consultant/.well-known/agent.json`)
    expect(json(await project.mesh(['team', 'show', 'consultant', '--json'])).exposure).toBe('external')
    expect((await agentCard('consultant')).status).toBe(200)

    const again = json(await project.mesh(['team', 'expose', 'consultant', '--json']))
    expect(again).toEqual({id: 'consultant', exposure: 'external', card: `${project.url}/team/consultant/.well-known/agent.json`, token})
  })

  it('other verbs never print the token', async () => {
    const token = project.tokens().consultant
    expect(token).toMatch(/^mtk_/)
    for (const args of [['list'], ['list', '--json'], ['show', 'consultant'], ['show', 'consultant', '--json'], ['edit', 'consultant', '--effort', 'low'], ['edit', 'consultant', '--model', 'sonnet', '--json']]) {
      const result = await project.mesh(['team', ...args])
      expect(result.code, args.join(' ')).toBe(0)
      expect(result.stdout + result.stderr, args.join(' ')).not.toContain(token)
    }
    // Nor does the debug stream, nor any snapshot of the card.
    expect(readFileSync(join(project.repo.root, '.mesh/.runtime/debug.jsonl'), 'utf8')).not.toContain(token)
    const snapshots = join(project.repo.root, '.mesh/snapshots')
    const walk = (dir: string): string[] => readdirSync(dir, {withFileTypes: true}).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [readFileSync(join(dir, e.name), 'utf8')]))
    for (const text of walk(snapshots)) expect(text).not.toContain(token)
  })

  it('rotate prints a new token as the last word; the old one is gone', async () => {
    const before = project.tokens().consultant
    const rotated = await project.mesh(['team', 'rotate', 'consultant'])
    expect(rotated.code, rotated.stderr).toBe(0)
    const token = lastWord(rotated.stdout)
    expect(token).toMatch(/^mtk_/)
    expect(token).not.toBe(before)
    expect(project.tokens().consultant).toBe(token)
    expect(rotated.stdout).toMatch(/the previous one no longer works/)
    const asJson = json(await project.mesh(['team', 'rotate', 'consultant', '--json']))
    expect(asJson.id).toBe('consultant')
    expect(asJson.token).toBe(project.tokens().consultant)
    expect(asJson.token).not.toBe(token)
  })

  it('revoke makes the member internal: token destroyed, card no longer served; rotate then answers 404', async () => {
    const revoked = await project.mesh(['team', 'revoke', 'consultant'])
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(revoked.stdout).toMatch(/consultant is internal/)
    expect(project.tokens()).not.toHaveProperty('consultant')
    expect((await agentCard('consultant')).status).toBe(404)
    expect(json(await project.mesh(['team', 'revoke', 'consultant', '--json']))).toMatchObject({id: 'consultant', exposure: 'internal'})

    const rotate = await project.mesh(['team', 'rotate', 'consultant'])
    expect(rotate.code).toBe(1)
    expect(rotate.errorText).toMatch(/No exposed team member consultant/)
  })

  it('unknown members are exit 1 (member_not_found) and bad ids exit 2, for each verb', async () => {
    for (const verb of ['expose', 'rotate', 'revoke']) {
      const unknown = await project.mesh(['team', verb, 'nobody', '--json'])
      expect(unknown.code, verb).toBe(1)
      expect(json(unknown).error.code, verb).toBe('member_not_found')
      const bad = await project.mesh(['team', verb, 'x'])
      expect(bad.code, verb).toBe(2)
      expect(bad.errorText, verb).toMatch(/A member id is a lowercase letter/)
    }
    expect(project.tokens()).not.toHaveProperty('nobody')
  })
})
