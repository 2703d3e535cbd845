/**
 * `mesh ask` follows the work it started (issue 19, See and stop): the
 * delegated turns nested under the asking turn, refusals, answers and the
 * closing turn, up to the conversation's idle; `--no-follow` stops at the
 * first final. Ctrl-C cancels the asked turn; `mesh daemon stop` while it
 * waits is told as a stopped turn, not a lost connection. Through the built
 * binary against `mesh serve`.
 */
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {json} from '../../support/cli.js'
import {serveTeam, type ServedTeam} from '../../support/served-team.js'
import {marker} from '../../daemon/chat/script-team.js'

const report = (summary: string) => marker('report', {status: 'done', summary})

describe('mesh ask follows the work', () => {
  let team: ServedTeam
  beforeAll(async () => {
    team = await serveTeam([
      {
        id: 'architect',
        replies: [
          {when: 'answered delegation', say: 'All done: the login is built and tested.'},
          {when: 'build', say: `Handing the login to the developer.\n${marker('delegate', {member: 'developer', brief: 'Build the login form'})}`},
        ],
        default: {say: 'plain answer'},
      },
      {
        id: 'developer',
        replies: [
          {when: 'answered delegation', say: `Tests pass; the form is done.\n${report('login form built and tested')}`},
          {when: 'Build the login form', say: `Building it.\n${marker('delegate', {member: 'tester', brief: 'Test the login form'})}`},
        ],
      },
      {id: 'tester', replies: [], default: {say: `Tested.\n${report('all green')}`, delay_ms: 20}},
    ])
  })
  afterAll(async () => {
    await team?.stop()
  })

  it('prints the asked conversation’s answers in a pipe, and --json lists every turn nested under the one that delegated it', async () => {
    const piped = await team.mesh(['ask', 'architect', 'build the login'])
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stdout).toBe('Handing the login to the developer.\nAll done: the login is built and tested.\n')

    const result = json(await team.mesh(['ask', 'architect', 'build the login again', '--json']))
    expect(result).toMatchObject({member: 'architect', status: 'done', text: 'Handing the login to the developer.'})
    const turns = result.turns.map((turn: any) => `${turn.depth}:${turn.member}:${turn.status}`)
    expect(turns).toEqual(['0:architect:done', '1:developer:done', '2:tester:done', '1:developer:done', '0:architect:done'])
    expect(result.requests.map((request: any) => `${request.member}:${request.outcome}`)).toEqual(['developer:success', 'tester:success'])
    // The nested turns answer the requests they are listed under.
    const developerRequest = result.requests.find((request: any) => request.member === 'developer').request_id
    expect(result.turns.filter((turn: any) => turn.member === 'developer').map((turn: any) => turn.request_id)).toEqual([developerRequest, developerRequest])
  })

  it('--no-follow stops at the first final', async () => {
    const result = json(await team.mesh(['ask', 'architect', 'build the login once more', '--no-follow', '--json']))
    expect(result.turns).toEqual([expect.objectContaining({member: 'architect', depth: 0, status: 'done'})])
    expect(result.requests).toEqual([])
  })
})

describe('mesh ask stopped from outside', () => {
  let team: ServedTeam
  beforeAll(async () => {
    team = await serveTeam([{id: 'architect', replies: [{when: 'hold', say: 'holding', hang: true}], default: {say: 'ok'}}])
  })
  afterAll(async () => {
    await team?.stop()
  })

  it('Ctrl-C (SIGINT) in a pipe cancels the asked turn and exits 1 with turn_cancelled', async () => {
    const ask = team.spawn(['ask', 'architect', 'hold this'])
    const turn = await expectRunningTurn(team)
    ask.child.kill('SIGINT')
    expect(await ask.exited).toBe(1)
    expect(ask.stderr().replace(/\s*›\s+/g, ' ')).toMatch(new RegExp(`architect's turn was cancelled \\(conversation c-[0-9a-f]{12}, turn ${turn}\\)`))
    expect((await team.call('GET', `/chat/turns/${turn}`)).body).toMatchObject({status: 'failed', reason: 'cancelled'})
  })

  it('`mesh daemon stop` while it waits: the turn was stopped (exit 1), not a lost daemon', async () => {
    const ask = team.spawn(['ask', 'architect', 'hold that'])
    await expectRunningTurn(team)
    const stopped = await team.mesh(['daemon', 'stop'])
    expect(stopped.code, stopped.stderr).toBe(0)
    expect(await ask.exited).toBe(1)
    const said = ask.stderr().replace(/\s*›\s+/g, ' ')
    expect(said).toMatch(/architect's turn was stopped: the daemon stopped while it ran/)
    expect(said).toContain('turn_stopped')
    expect(said).not.toMatch(/daemon_unreachable|ECONNREFUSED|event stream/)
  })
})

/** Waits (polling the daemon) for a turn of architect to run; answers its id. */
async function expectRunningTurn(team: ServedTeam): Promise<string> {
  let turn = ''
  await expect
    .poll(
      async () => {
        const {convs} = (await team.call('GET', '/chat/convs')).body
        turn = convs.find((conv: any) => conv.live && conv.turn_id)?.turn_id ?? ''
        return turn
      },
      {timeout: 20_000, interval: 50},
    )
    .not.toBe('')
  return turn
}
