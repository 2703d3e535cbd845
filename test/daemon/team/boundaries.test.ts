import {describe, expect, it} from 'vitest'
import {boundariesFor} from '../../../src/daemon/team/boundaries.js'

const COMMITS = 'Commits go through the git-manager: report `commit: null` with `files`.'
const RELEASES = 'Releases go through the deployer: brief it instead of deploying yourself.'
const BASE = ['architect', 'developer', 'git-manager', 'deployer', 'consultant']

describe('boundariesFor (spec v37: a boundary only with its counterpart)', () => {
  it('gives both boundaries to the base team of five, commits first', () => {
    expect(boundariesFor(BASE)).toEqual([COMMITS, RELEASES])
  })

  it('drops the commit boundary when there is no git-manager', () => {
    expect(boundariesFor(['architect', 'developer', 'deployer'])).toEqual([RELEASES])
  })

  it('drops the release boundary when there is no deployer', () => {
    expect(boundariesFor(['architect', 'git-manager'])).toEqual([COMMITS])
  })

  it('gives none to a roster of one architect (the v37 seed) or an empty one', () => {
    expect(boundariesFor(['architect'])).toEqual([])
    expect(boundariesFor([])).toEqual([])
  })

  it('matches whole ids only', () => {
    expect(boundariesFor(['git-manager-2', 'deployers', 'Git-Manager'])).toEqual([])
  })

  it('never tells the counterpart to hand work to itself', () => {
    expect(boundariesFor(BASE, 'git-manager')).toEqual([RELEASES])
    expect(boundariesFor(BASE, 'deployer')).toEqual([COMMITS])
    expect(boundariesFor(BASE, 'developer')).toEqual([COMMITS, RELEASES])
  })
})
