import {lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {isMeshError} from '../../../../src/lib/errors.js'
import {ledgerFile} from '../../../../src/daemon/chat/delegation/ledger-file.js'
import {createLedger, type Ledger, type LedgerOptions, type Requester} from '../../../../src/daemon/chat/delegation/ledger.js'

let seq = 0
const build = (options: Partial<LedgerOptions> = {}): Ledger =>
  createLedger({maxDepth: 4, maxFanOut: 5, clock: () => Date.UTC(2026, 0, 5), newRequestId: () => `dlg_${(++seq).toString(16).padStart(12, '0')}`, ...options})

const operatorChat = (member: string): Requester => ({conv: 'c-000000000001', member})
const session = (member: string): Requester => ({conv: `m-${member}`, member})

/** Opens the chain a → b → … (a writes in an operator chat, each next one in its session) and returns the ledger. */
function chainOf(ledger: Ledger, members: string[]) {
  ledger.open({requester: operatorChat(members[0]), member: members[1], brief: 'go'})
  for (let i = 1; i < members.length - 1; i++) ledger.open({requester: session(members[i]), member: members[i + 1], brief: 'go'})
}

const codeOf = (work: () => unknown) => {
  try {
    work()
  } catch (error) {
    if (isMeshError(error)) return {code: error.code, kind: error.kind}
    throw error
  }
  return null
}

describe('delegation ledger: opening rows', () => {
  it('opens a row on the member session with a dlg_ id, the requester and its chain', () => {
    const ledger = build()
    const row = ledger.open({requester: operatorChat('architect'), member: 'developer', brief: 'Add the login route', anchor: {initiative: 'launch', task: 'API1'}})
    expect(row).toMatchObject({conv: 'm-developer', member: 'developer', requester: {conv: 'c-000000000001', member: 'architect'}, chain: ['architect'], brief: 'Add the login route', anchor: {initiative: 'launch', task: 'API1'}, status: 'open', opened_at: '2026-01-05T00:00:00.000Z'})
    expect(row.request_id).toMatch(/^dlg_[0-9a-f]+$/)
    expect(ledger.openRequestsOf('m-developer').map((r) => r.request_id)).toEqual([row.request_id])
    expect(ledger.isCoordinating('c-000000000001')).toBe(true)
    expect(ledger.isCoordinating('m-developer')).toBe(false)
  })

  it('starts an empty chain for the operator itself (no conv), whom no check refuses as a member', () => {
    const ledger = build()
    const operator: Requester = {conv: null, member: 'operator'}
    expect(ledger.chainOf(operator)).toEqual([])
    expect(ledger.check(operator, 'operator')).toBeNull()
    expect(ledger.open({requester: operator, member: 'developer', brief: 'x'}).chain).toEqual([])
  })

  it('chains a session requester under the union of the chains it is answering, in order, without repeats', () => {
    const ledger = build()
    ledger.open({requester: operatorChat('architect'), member: 'developer', brief: 'a'})
    ledger.open({requester: session('consultant'), member: 'developer', brief: 'b'})
    ledger.open({requester: operatorChat('architect'), member: 'developer', brief: 'c'})
    expect(ledger.chainOf(session('developer'))).toEqual(['architect', 'consultant', 'developer'])
    expect(ledger.chainOf(operatorChat('architect'))).toEqual(['architect'])
  })
})

describe('delegation ledger: refusals', () => {
  it('refuses re-entry: a member delegating to itself, or into the session it runs in under become', () => {
    const ledger = build()
    expect(ledger.check(operatorChat('architect'), 'architect')).toMatchObject({code: 'delegation-reentry', status: 409})
    expect(ledger.check({conv: 'm-developer', member: 'consultant'}, 'developer')).toMatchObject({code: 'delegation-reentry', status: 409})
    expect(codeOf(() => ledger.open({requester: session('developer'), member: 'developer', brief: 'x'}))).toEqual({code: 'delegation-reentry', kind: 'conflict'})
  })

  it('refuses a cycle: a member already in the chain, other than the requester', () => {
    const ledger = build()
    chainOf(ledger, ['architect', 'developer', 'reviewer'])
    expect(ledger.check(session('reviewer'), 'architect')).toMatchObject({code: 'delegation-cycle', status: 409, chain: ['architect', 'developer', 'reviewer']})
    expect(ledger.check(session('reviewer'), 'developer')).toMatchObject({code: 'delegation-cycle'})
    expect(ledger.check(session('reviewer'), 'reviewer')).toMatchObject({code: 'delegation-reentry'})
    expect(ledger.check(session('reviewer'), 'tester')).toBeNull()
    expect(codeOf(() => ledger.open({requester: session('reviewer'), member: 'architect', brief: 'x'}))).toEqual({code: 'delegation-cycle', kind: 'conflict'})
  })

  it('allows a chain of exactly the depth limit (4) and refuses one longer (5)', () => {
    const ledger = build()
    chainOf(ledger, ['a1', 'a2', 'a3', 'a4', 'a5'])
    const deepest = ledger.openRequestsOf('m-a5')
    expect(deepest).toHaveLength(1)
    expect(deepest[0].chain).toEqual(['a1', 'a2', 'a3', 'a4'])
    expect(ledger.check(session('a5'), 'a6')).toMatchObject({code: 'delegation-max-depth', status: 409, chain: ['a1', 'a2', 'a3', 'a4', 'a5']})
    expect(codeOf(() => ledger.open({requester: session('a5'), member: 'a6', brief: 'x'}))).toEqual({code: 'delegation-max-depth', kind: 'conflict'})
  })

  it('follows a configured depth', () => {
    const ledger = build({maxDepth: 1})
    ledger.open({requester: operatorChat('a1'), member: 'a2', brief: 'x'})
    expect(ledger.check(session('a2'), 'a3')).toMatchObject({code: 'delegation-max-depth'})
  })

  it('allows 5 distinct member sessions from one conv and refuses a 6th with 429', () => {
    const ledger = build()
    const from = operatorChat('architect')
    for (const member of ['m1', 'm2', 'm3', 'm4', 'm5']) ledger.open({requester: from, member, brief: 'x'})
    expect(ledger.check(from, 'm6')).toMatchObject({code: 'delegation-fan-out', status: 429})
    expect(codeOf(() => ledger.open({requester: from, member: 'm6', brief: 'x'}))).toEqual({code: 'delegation-fan-out', kind: 'rate_limited'})
    // Another conv of the same member has its own budget.
    expect(ledger.check({conv: 'c-000000000002', member: 'architect'}, 'm6')).toBeNull()
  })

  it('counts sessions, not briefs: a second brief to a member already briefed does not count twice', () => {
    const ledger = build()
    const from = operatorChat('architect')
    for (const member of ['m1', 'm2', 'm3', 'm4', 'm5']) ledger.open({requester: from, member, brief: 'x'})
    expect(ledger.check(from, 'm3')).toBeNull()
    ledger.open({requester: from, member: 'm3', brief: 'more'})
    expect(ledger.requestsBy('c-000000000001')).toHaveLength(6)
    expect(ledger.check(from, 'm6')).toMatchObject({code: 'delegation-fan-out'})
  })

  it('frees fan-out once a session has answered every brief from that conv', () => {
    const ledger = build()
    const from = operatorChat('architect')
    for (const member of ['m1', 'm2', 'm3', 'm4', 'm5']) ledger.open({requester: from, member, brief: 'x'})
    ledger.close('m-m2', undefined, 'success')
    expect(ledger.check(from, 'm6')).toBeNull()
  })
})

describe('delegation ledger: closing rows', () => {
  it('closes only the rows named in `for`, with the outcome and the report', () => {
    const ledger = build()
    const first = ledger.open({requester: operatorChat('architect'), member: 'developer', brief: 'a'})
    const second = ledger.open({requester: session('consultant'), member: 'developer', brief: 'b'})
    const closed = ledger.close('m-developer', [second.request_id], 'success', {summary: 'Done b', files: ['src/b.ts'], commit: null})
    expect(closed).toEqual([expect.objectContaining({request_id: second.request_id, status: 'closed', outcome: 'success', summary: 'Done b', files: ['src/b.ts'], commit: null, closed_at: '2026-01-05T00:00:00.000Z'})])
    expect(ledger.openRequestsOf('m-developer').map((r) => r.request_id)).toEqual([first.request_id])
    expect(ledger.isCoordinating('m-consultant')).toBe(false)
    expect(ledger.isCoordinating('c-000000000001')).toBe(true)
  })

  it('closes every open row of the conv when `for` is omitted, and nothing of another conv', () => {
    const ledger = build()
    ledger.open({requester: operatorChat('architect'), member: 'developer', brief: 'a'})
    ledger.open({requester: session('consultant'), member: 'developer', brief: 'b'})
    const other = ledger.open({requester: operatorChat('architect'), member: 'deployer', brief: 'c'})
    expect(ledger.close('m-developer', [other.request_id], 'success')).toEqual([])
    const closed = ledger.close('m-developer', undefined, 'failure', {reason: 'the turn failed'})
    expect(closed.map((r) => r.brief)).toEqual(['a', 'b'])
    expect(closed.every((r) => r.outcome === 'failure' && r.reason === 'the turn failed')).toBe(true)
    expect(ledger.openRequestsOf('m-developer')).toEqual([])
    expect(ledger.close('m-developer', undefined, 'success')).toEqual([])
    expect(ledger.snapshot().open.map((r) => r.request_id)).toEqual([other.request_id])
    expect(ledger.row(closed[0].request_id)?.status).toBe('closed')
  })

  it('keeps the newest 100 closed rows, newest first', () => {
    const ledger = build()
    for (let i = 0; i < 105; i++) {
      ledger.open({requester: operatorChat('architect'), member: 'developer', brief: `b${i}`})
      ledger.close('m-developer', undefined, 'success')
    }
    const {closed, limits} = ledger.snapshot()
    expect(closed).toHaveLength(100)
    expect(closed[0].brief).toBe('b104')
    expect(closed[99].brief).toBe('b5')
    expect(limits).toEqual({max_depth: 4, max_fan_out: 5})
  })

  it('hands out copies: changing an answer does not change the ledger', () => {
    const ledger = build()
    const row = ledger.open({requester: operatorChat('architect'), member: 'developer', brief: 'a'})
    row.chain.push('x')
    ledger.snapshot().open[0].status = 'closed'
    expect(ledger.openRequestsOf('m-developer')[0]).toMatchObject({chain: ['architect'], status: 'open'})
  })

  it('refuses impossible limits when built', () => {
    expect(() => build({maxDepth: 0})).toThrow(TypeError)
  })
})

describe('delegation ledger on disk', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, {recursive: true, force: true})
    dir = undefined
  })
  const logs: string[] = []
  const context = {debug: {log: (event: {msg: string}) => void logs.push(event.msg)}} as any

  it('saves every change and a new ledger built from the file holds the same rows and rules', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mesh-ledger-'))
    const path = join(dir, '.runtime', 'chat', 'ledger.json')
    const file = ledgerFile(context, dir, '.runtime/chat/ledger.json')
    expect(file.load()).toEqual({version: 1, open: [], closed: []})
    const ledger = build({persist: file.persist})
    const from = operatorChat('architect')
    for (const member of ['m1', 'm2', 'm3', 'm4', 'm5']) ledger.open({requester: from, member, brief: 'x'})
    ledger.close('m-m1', undefined, 'success', {summary: 'ok'})
    ledger.open({requester: from, member: 'm1', brief: 'again'})
    await file.flush()
    expect(JSON.parse(readFileSync(path, 'utf8')).open).toHaveLength(5)

    const restored = build({state: ledgerFile(context, dir, '.runtime/chat/ledger.json').load()})
    const {limits: _l, ...before} = ledger.snapshot()
    const {limits: _r, ...after} = restored.snapshot()
    expect(after).toEqual(before)
    expect(restored.check(from, 'm6')).toMatchObject({code: 'delegation-fan-out'})
    expect(restored.isCoordinating('c-000000000001')).toBe(true)
  })

  it('never reads a ledger through a link (issue 18): it starts empty with a warning, and the next save replaces the link, not its target', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mesh-ledger-'))
    const good = build().open({requester: operatorChat('architect'), member: 'developer', brief: 'from outside'})
    const target = join(dir, 'elsewhere.json')
    writeFileSync(target, JSON.stringify({version: 1, open: [good], closed: []}))
    symlinkSync(target, join(dir, 'ledger.json'))
    const file = ledgerFile(context, dir, 'ledger.json')
    expect(file.load()).toEqual({version: 1, open: [], closed: []})
    expect(logs.some((msg) => /ledger\.json is a symbolic link/.test(msg))).toBe(true)
    file.persist({version: 1, open: [], closed: []})
    await file.flush()
    expect(lstatSync(join(dir, 'ledger.json')).isFile()).toBe(true)
    expect(JSON.parse(readFileSync(target, 'utf8')).open).toHaveLength(1)
  })

  it('starts empty, with a warning, from a file that is not JSON, and skips malformed rows', () => {
    dir = mkdtempSync(join(tmpdir(), 'mesh-ledger-'))
    const path = join(dir, 'ledger.json')
    writeFileSync(path, '{not json')
    expect(ledgerFile(context, dir, 'ledger.json').load()).toEqual({version: 1, open: [], closed: []})
    expect(logs.some((msg) => msg.includes('not valid JSON'))).toBe(true)
    const good = build().open({requester: operatorChat('architect'), member: 'developer', brief: 'a'})
    writeFileSync(path, JSON.stringify({version: 1, open: [good, {request_id: 7}], closed: 'nope'}))
    expect(ledgerFile(context, dir, 'ledger.json').load()).toEqual({version: 1, open: [good], closed: []})
  })
})
