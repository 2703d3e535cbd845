import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {parseFrontmatter} from '../../../src/standard/frontmatter.js'
import {completedAt, createTask, parseAge, recordCommitSha} from '../../../src/standard/tasks/index.js'
import {tempProject} from '../scaffold/temp-project.js'

const SHA = '0123456789abcdef0123456789abcdef01234567'

describe('parseAge (mesh task archive --older-than)', () => {
  it('reads days (the default unit) and hours, and refuses anything else as a usage error', () => {
    expect(parseAge('30d')).toBe(30 * 86_400_000)
    expect(parseAge('30')).toBe(30 * 86_400_000)
    expect(parseAge('12h')).toBe(12 * 3_600_000)
    expect(parseAge('0')).toBe(0)
    for (const bad of ['', '-1d', '3w', '1.5d', 'thirty', '30 d']) expect(() => parseAge(bad), bad).toThrow(expect.objectContaining({code: 'usage_bad_duration'}))
  })
})

describe('completedAt', () => {
  it('is completed_at, else the updated date, else null', () => {
    expect(completedAt({completed_at: '2026-01-02T03:04:05Z', updated: '2025-01-01'})?.toISOString()).toBe('2026-01-02T03:04:05.000Z')
    expect(completedAt({updated: '2025-01-01'})?.toISOString()).toBe('2025-01-01T00:00:00.000Z')
    expect(completedAt({completed_at: 'soon'})).toBeNull()
  })
})

describe('recordCommitSha', () => {
  it('appends a SHA once, keeps updated, and refuses what is not a SHA', async () => {
    const root = await tempProject()
    const task = await createTask(root, {module: 'general', title: 'A', now: new Date('2026-01-05T00:00:00Z')})
    expect(await recordCommitSha(root, 'GEN1', SHA)).toMatchObject({id: 'GEN1', changed: true, status: 'backlog'})
    expect(await recordCommitSha(root, 'GEN1', SHA)).toMatchObject({changed: false})
    expect(await recordCommitSha(root, 'GEN1', 'abcdef1')).toMatchObject({changed: true})
    const data = parseFrontmatter(await readFile(join(root, task.path), 'utf8')).data as Record<string, unknown>
    expect(data).toMatchObject({commit_shas: [SHA, 'abcdef1'], updated: '2026-01-05'})
    await expect(recordCommitSha(root, 'GEN1', 'HEAD; rm -rf /')).rejects.toMatchObject({code: 'invalid_sha'})
    await expect(recordCommitSha(root, 'GEN9', SHA)).rejects.toMatchObject({code: 'task_unknown'})
  })
})
