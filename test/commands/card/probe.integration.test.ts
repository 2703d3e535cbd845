import {afterEach, describe, expect, it} from 'vitest'
import {json, runCli} from '../../support/cli.js'
import {startTestAgent, type TestAgent, type TestAgentOptions} from '../../support/test-agent.js'

// `mesh card probe` runs the registry's prober (probeAgent) through the built binary against a test agent on 127.0.0.1.
describe('mesh card probe (built CLI)', () => {
  let agent: TestAgent | undefined
  const start = async (options: TestAgentOptions) => (agent = await startTestAgent(options))
  afterEach(async () => {
    await agent?.close()
    agent = undefined
  })

  const healthy: TestAgentOptions = {
    skills: [
      {id: 'echo', returns: ['ok']},
      {id: 'draw', returns: ['ok', 'missing']},
    ],
  }

  it('prints operational, card_match, liveness and every skill; exit 0 only when all is well', async () => {
    const served = await start({skills: [{id: 'echo', returns: ['ok']}, {id: 'plain'}]})
    const result = await runCli(['card', 'probe', served.url])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^agent +http:\/\/127\.0\.0\.1:\d+$/m)
    expect(result.stdout).toMatch(/^card +ok \(Test agent 1\.0\.0, 2 skills\)$/m)
    expect(result.stdout).toMatch(/^live +yes \(GET \/health 200, ok: true\)$/m)
    expect(result.stdout).toMatch(/^operational +yes$/m)
    expect(result.stdout).toMatch(/^card_match +1\/1$/m)
    expect(result.stdout).toMatch(/^ {2}echo +answering \(400\) +card_match 1\/1 +http:\/\/127\.0\.0\.1:\d+\/v1\/echo$/m)
    expect(result.stdout).toMatch(/^ {2}plain +answering \(400\) +card_match — \(no returns\) +http/m)
    // The prober's own requests: the card, /health, POST {} and the JSON example, marked as probes.
    expect(served.requestsTo('/v1/echo').map((request) => request.body)).toEqual(['{}', '{"text":"hello"}'])
    expect(served.requestsTo('/v1/echo')[0].headers['x-mesh-probe']).toBe('1')
  })

  it('--json prints what the registry would record', async () => {
    const served = await start(healthy)
    const result = await runCli(['card', 'probe', served.url, '--json'])
    expect(result.code).toBe(1) // draw's card_match is 1/2
    const report = json(result)
    expect(report).toMatchObject({
      endpoint: served.url,
      operational: true,
      card_match: '2/3',
      card_error: null,
      live_check: {ok: true, source: 'health'},
      health: {status: 200, ok: true},
      skills: [
        {id: 'echo', answering: true, status: 400, card_match: '1/1', url: `${served.url}/v1/echo`},
        {id: 'draw', answering: true, status: 400, card_match: '1/2'},
      ],
    })
    expect(report.card).toMatchObject({name: 'Test agent'})
  })

  it('a skill the card advertises but the agent does not serve: not operational, exit 1', async () => {
    const served = await start({skills: [{id: 'echo'}, {id: 'ghost', served: false}]})
    const result = await runCli(['card', 'probe', served.url])
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^operational +no$/m)
    expect(result.stdout).toMatch(/^ {2}ghost +not answering \(404\)/m)
  })

  it('a paid skill is not content-probed; no /health falls back to availability.now; a card URL is taken back to its agent', async () => {
    const served = await start({pricing: {unit: 'request', amount: 5000, currency: 'lamports'}, health: 'missing', skills: [{id: 'gen', returns: ['ok']}]})
    const result = await runCli(['card', 'probe', `${served.url}/.well-known/agent.json`])
    expect(result.stdout).toMatch(/^live +yes \(no \/health: from availability\.now\)$/m)
    expect(result.stdout).toMatch(/card_match skipped: paid/)
    expect(result.stdout).toMatch(/^card_match +— /m)
    expect(served.requestsTo('/v1/gen').map((request) => request.body)).toEqual(['{}'])
  })

  it('a card the registry would refuse is reported with its reason', async () => {
    const served = await start({card: {name: 'no skills here'}})
    const result = await runCli(['card', 'probe', served.url, '--json'])
    expect(result.code).toBe(1)
    expect(json(result)).toMatchObject({operational: false, card: null, card_error: {reason: expect.stringMatching(/^card_invalid: \$: missing required key "url"/)}})
  })

  it('no agent at the address: exit 1 with the reason; not an http(s) URL: exit 2', async () => {
    const served = await start({})
    const url = served.url
    await served.close()
    agent = undefined
    const gone = await runCli(['card', 'probe', url])
    expect(gone.code).toBe(1)
    expect(gone.stdout).toMatch(/^card +card_unreachable: /m)
    expect(gone.stdout).toMatch(/^operational +no$/m)
    const bad = await runCli(['card', 'probe', 'agent.example'])
    expect(bad.code).toBe(2)
    expect(bad.errorText).toContain('must be an http(s) URL')
  })
})
