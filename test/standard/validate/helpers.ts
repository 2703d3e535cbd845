import {validateProject} from '../../../src/standard/validate/index.js'
import type {Finding} from '../../../src/standard/validate/index.js'
import {makeRepo, type FixtureRepo} from '../fixtures.js'

/** Validates the minimal repo plus `extra` files (after `mutate`), returning its findings; cleans up. */
export async function findingsFor(extra: Record<string, string> = {}, mutate?: (repo: FixtureRepo) => void): Promise<Finding[]> {
  const repo = makeRepo(extra)
  try {
    mutate?.(repo)
    return (await validateProject(repo.root)).findings
  } finally {
    repo.cleanup()
  }
}

/** The findings of one rule. */
export const ofRule = (findings: Finding[], rule: string) => findings.filter((finding) => finding.rule === rule)

/** `rule@file:line` strings, compact for assertions. */
export const brief = (findings: Finding[]) => findings.map((finding) => `${finding.rule}@${finding.file}:${finding.line}`)
