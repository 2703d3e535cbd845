/**
 * The daemon's `GET /metrics` (docs/operating.md, The daemon's metrics):
 * behind the portal token, read with a real Prometheus text parser, every
 * documented metric present; a scripted turn with a reported cost shows in
 * the turn histogram and the cost total, an `/events` socket in the
 * subscribers, a file written in the project in the watcher events.
 */
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import WebSocket from 'ws'
import {afterEach, expect, it} from 'vitest'
import {documentedMetrics, parseMetrics, sampleValue} from '../../support/prometheus.js'
import {writeScriptTeam} from '../chat/script-team.js'
import {startHarness, type DaemonHarness} from '../harness.js'
import {recordEvents} from '../watch/recorder.js'

const DOCUMENTED = documentedMetrics(readFileSync(new URL('../../../docs/operating.md', import.meta.url), 'utf8'), '### The daemon').map(({name}) => name)

let harness: DaemonHarness
afterEach(async () => {
  await harness?.close()
})

const scrape = async () => {
  const answer = await harness.call('GET', '/metrics', {auth: true})
  expect(answer.status).toBe(200)
  expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
  return parseMetrics(answer.body as string)
}

it('refuses a scrape without the portal token', async () => {
  harness = await startHarness()
  const answer = await harness.call('GET', '/metrics')
  expect(answer.status).toBe(401)
  expect(answer.body.error.code).toEqual(expect.any(String))
})

it('counts turns, their duration and cost, /events subscribers and watcher events', async () => {
  harness = await startHarness()
  writeScriptTeam(harness.repo.root, [{id: 'developer', format: 'claude-stream', replies: [{say: 'done', usage: {cost_usd: 0.25}}]}])
  const events = recordEvents(harness.running.daemon.context.events, harness.repo.root)
  try {
    // Scraped once before the turn: what happens later is counted from the histogram itself.
    const before = await scrape()
    expect(DOCUMENTED).toHaveLength(6)
    expect(DOCUMENTED.filter((name) => !before.has(name))).toEqual([])
    expect(before.has('process_cpu_user_seconds_total')).toBe(true)
    expect(sampleValue(before, 'mesh_daemon_turns_running')).toBe(0)
    expect(sampleValue(before, 'mesh_daemon_event_subscribers')).toBe(0)

    const sent = await harness.call('POST', '/chat/send', {auth: true, body: JSON.stringify({member: 'developer', text: 'go'})})
    expect(sent.status).toBe(202)
    // `chat.idle` follows the final hooks, the metrics' among them.
    await events.waitFor((event) => event.type === 'chat.idle' && event.data.conv === sent.body.conv, 'the conversation idle')
    writeFileSync(join(harness.repo.root, 'notes.md'), 'a file of the project\n')
    await events.waitFor((event) => event.type === 'file.changed', 'the watcher event')

    const socket = new WebSocket(`${harness.url.replace('http', 'ws')}/events`, {headers: {authorization: `Bearer ${harness.token}`, host: new URL(harness.url).host}})
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    try {
      const after = await scrape()
      expect(sampleValue(after, 'mesh_daemon_reported_cost_usd_total')).toBe(0.25)
      expect(after.get('mesh_daemon_turn_duration_seconds')?.type).toBe('HISTOGRAM')
      expect(sampleValue(after, 'mesh_daemon_turns_running')).toBe(0)
      expect(sampleValue(after, 'mesh_daemon_turns_waiting')).toBe(0)
      expect(sampleValue(after, 'mesh_daemon_event_subscribers')).toBe(1)
      expect(sampleValue(after, 'mesh_daemon_watcher_events_total', {type: 'file.changed'})).toBeGreaterThanOrEqual(1)
    } finally {
      socket.close()
    }
  } finally {
    events.stop()
  }
})
