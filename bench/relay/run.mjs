// Relay benchmark: the mesh relay against a bare `ws` broadcast server and
// socket.io rooms, side by side in one run, servers and load generators in
// separate processes, loopback only. Run after `npm run build`:
//   node bench/relay/run.mjs [--members 1000] [--messages 200] [--rounds 5] [--idle 10000] [--systems mesh,ws,socketio] [--json]
//   [--cpu-prof <dir>]   (writes each server's V8 CPU profile there, for `node --cpu-prof`-style analysis)
// See docs/cluster-cli.md ("Benchmark") for what each number means.
import {existsSync} from 'node:fs'
import {cpus, loadavg} from 'node:os'
import {parseArgs} from 'node:util'
import {now, openClient} from './clients.mjs'
import {fmt, HERE, median, mergeSorted, percentile, split, startLoadgen, startServer} from './lib.mjs'

const {values: flags} = parseArgs({
  options: {
    members: {type: 'string', default: '1000'},
    messages: {type: 'string', default: '200'},
    window: {type: 'string', default: '32'},
    rounds: {type: 'string', default: '5'},
    paced: {type: 'string', default: '100'},
    rate: {type: 'string', default: '20'},
    loadgens: {type: 'string', default: '2'},
    idle: {type: 'string', default: '10000'},
    'idle-loadgens': {type: 'string', default: '4'},
    'idle-rooms': {type: 'string', default: '100'},
    hold: {type: 'string', default: '5'},
    systems: {type: 'string', default: 'mesh,ws,socketio'},
    json: {type: 'boolean', default: false},
    'cpu-prof': {type: 'string'},
  },
})
const num = (name) => {
  const value = Number(flags[name])
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number`)
  return value
}
const MEMBERS = num('members')
const MESSAGES = num('messages')
const WINDOW = Math.max(1, num('window'))
const ROUNDS = Math.max(1, num('rounds'))
const PACED = num('paced')
const RATE = Math.max(1, num('rate'))
const LOADGENS = Math.max(1, num('loadgens'))
const IDLE = num('idle')
const IDLE_LOADGENS = Math.max(1, num('idle-loadgens'))
const IDLE_ROOMS = Math.max(1, num('idle-rooms'))
const HOLD_S = num('hold')
const SYSTEMS = flags.systems.split(',').filter(Boolean)
const NAMES = {mesh: 'mesh relay', ws: 'bare ws', socketio: 'socket.io'}
for (const system of SYSTEMS) if (!NAMES[system]) throw new Error(`--systems: unknown "${system}" (known: ${Object.keys(NAMES).join(', ')})`)
const TEXT = 'The relay treats the payload as opaque; this line is a typical chat message.'
const log = (line) => process.stderr.write(line + '\n')
/** The bars: mesh broadcast deliveries/s ≥ 90 % of bare ws and ≥ 1.5× socket.io; ≤ 20 KB RSS per idle connection. */
const BAR_VS_WS = 0.9
const BAR_VS_SOCKETIO = 1.5
const GOAL_BYTES_PER_IDLE = 20 * 1024

if (!existsSync(`${HERE}../../dist/cluster/index.js`)) {
  log('dist/ is missing: run `npm run build` first (the benchmark imports the built relay).')
  process.exit(1)
}

/** A room on a server: a private cluster on the mesh relay, a named room on the baselines. */
async function makeRoom(server, name) {
  if (server.system !== 'mesh') return {http: server.http, room: name}
  const response = await fetch(`${server.http}/v1/clusters`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({name})})
  if (response.status !== 201) throw new Error(`creating a cluster answered ${response.status}: ${await response.text()}`)
  const {cluster_id, token} = await response.json()
  return {http: server.http, room: cluster_id, token}
}

/** Opens `count` connections to each room, spread over the load generators. */
async function openMembers(loadgens, system, rooms, perRoom, prefix) {
  const shares = split(perRoom, loadgens.length)
  const opened = await Promise.all(
    loadgens.map((loadgen, i) => loadgen.request({op: 'open', system, prefix: `${prefix}${i}`, targets: rooms.map((room) => ({...room, count: shares[i]}))}, 'opened', 300_000)),
  )
  const ok = opened.reduce((sum, o) => sum + o.ok, 0)
  const failed = opened.reduce((sum, o) => sum + o.failed, 0)
  return {ok, failed, error: opened.find((o) => o.error)?.error}
}

const quiet = (loadgens, ms) => Promise.all(loadgens.map((loadgen) => loadgen.request({op: 'quiet', ms}, 'quiet', 120_000)))

/** Sends `count` messages from `sender` and waits until every member received them all. */
async function deliver(server, loadgens, sender, system, tag, count, pace) {
  await Promise.all(loadgens.map((loadgen) => loadgen.request({op: 'expect', system, tag, perConnection: count}, 'expecting')))
  const done = Promise.all(loadgens.map((loadgen) => loadgen.wait('done', 180_000)))
  const cpuBefore = await server.cpuSeconds()
  const start = now()
  if (pace.intervalMs) {
    const acks = []
    for (let seq = 0; seq < count; seq++) {
      acks.push(sender.send({tag, seq, t: now(), text: TEXT}))
      await new Promise((resolve) => setTimeout(resolve, pace.intervalMs))
    }
    await Promise.all(acks)
  } else {
    await new Promise((resolve) => {
      let sent = 0
      let inFlight = 0
      const pump = () => {
        while (inFlight < pace.window && sent < count) {
          inFlight += 1
          sent += 1
          sender.send({tag, seq: sent, t: now(), text: TEXT}).then(() => {
            inFlight -= 1
            if (sent === count && inFlight === 0) resolve()
            else pump()
          })
        }
      }
      pump()
    })
  }
  const results = await done
  const cpu = (await server.cpuSeconds()) - cpuBefore
  const end = Math.max(...results.map((result) => result.lastAt))
  const received = results.reduce((sum, result) => sum + result.received, 0)
  const latencies = mergeSorted(results.map((result) => result.latencies))
  // Deliveries per CPU-second of the server process: its own efficiency, whatever else the machine runs.
  return {received, seconds: (end - start) / 1000, rate: received / ((end - start) / 1000), perCpuSecond: received / cpu, p50: percentile(latencies, 50), p99: percentile(latencies, 99)}
}

async function fanOut() {
  log(`fan-out: ${MEMBERS} members per room, ${MESSAGES} messages × ${ROUNDS} rounds (window ${WINDOW}), then ${PACED} paced at ${RATE}/s`)
  const servers = {}
  for (const system of SYSTEMS) servers[system] = await startServer(system, {files: MEMBERS + 1024, profileDir: flags['cpu-prof']})
  const loadgens = Array.from({length: LOADGENS}, () => startLoadgen({files: Math.ceil((MEMBERS * SYSTEMS.length) / LOADGENS) + 1024}))
  const senders = {}
  try {
    for (const system of SYSTEMS) {
      const room = await makeRoom(servers[system], 'fan-out')
      const opened = await openMembers(loadgens, system, [room], MEMBERS, 'm')
      if (opened.failed > 0) throw new Error(`${NAMES[system]}: ${opened.failed} of ${MEMBERS} members failed to connect (${opened.error})`)
      senders[system] = await openClient(system, {...room, agent: 'sender'})
      log(`  ${NAMES[system]}: ${opened.ok} members connected`)
    }
    await quiet(loadgens, 500)
    const results = Object.fromEntries(SYSTEMS.map((system) => [system, {rounds: []}]))
    // Warm-up: JIT and buffers, not counted.
    for (const system of SYSTEMS) await deliver(servers[system], loadgens, senders[system], system, `warm-${system}`, Math.min(20, MESSAGES), {window: WINDOW})
    // Rounds interleave the systems so a noisy neighbour on the machine hits all of them alike.
    for (let round = 1; round <= ROUNDS; round++) {
      for (const system of SYSTEMS) {
        const result = await deliver(servers[system], loadgens, senders[system], system, `tp-${system}-${round}`, MESSAGES, {window: WINDOW})
        results[system].rounds.push(result)
        log(`  round ${round} ${NAMES[system].padEnd(10)} ${fmt(result.rate)} deliveries/s, ${fmt(result.perCpuSecond)} per server CPU-s (p50 ${fmt(result.p50, 1)} ms, p99 ${fmt(result.p99, 1)} ms)`)
      }
    }
    if (PACED > 0) {
      for (const system of SYSTEMS) {
        results[system].paced = await deliver(servers[system], loadgens, senders[system], system, `paced-${system}`, PACED, {intervalMs: 1000 / RATE})
        log(`  paced ${NAMES[system].padEnd(10)} p50 ${fmt(results[system].paced.p50, 2)} ms, p99 ${fmt(results[system].paced.p99, 2)} ms`)
      }
    }
    for (const system of SYSTEMS) {
      const rounds = results[system].rounds
      results[system].rate = median(rounds.map((r) => r.rate))
      results[system].perCpuSecond = median(rounds.map((r) => r.perCpuSecond))
      results[system].p50 = median(rounds.map((r) => r.p50))
      results[system].p99 = median(rounds.map((r) => r.p99))
    }
    return results
  } finally {
    for (const sender of Object.values(senders)) sender.close()
    await Promise.all(loadgens.map((loadgen) => loadgen.stop()))
    for (const server of Object.values(servers)) await server.stop()
  }
}

/** Memory per idle connection and holding IDLE connections on one server process. */
async function idle(system) {
  const server = await startServer(system, {files: IDLE + 1024})
  const loadgens = Array.from({length: IDLE_LOADGENS}, () => startLoadgen({files: Math.ceil(IDLE / IDLE_LOADGENS) + 1024}))
  try {
    const rooms = []
    for (let i = 0; i < IDLE_ROOMS; i++) rooms.push(await makeRoom(server, `idle-${i}`))
    const before = await server.memory()
    const perRoom = Math.ceil(IDLE / IDLE_ROOMS)
    const started = now()
    const opened = await openMembers(loadgens, system, rooms, perRoom, 'i')
    const openSeconds = (now() - started) / 1000
    await quiet(loadgens, 1000)
    const after = await server.memory()
    await new Promise((resolve) => setTimeout(resolve, HOLD_S * 1000))
    const counts = await Promise.all(loadgens.map((loadgen) => loadgen.request({op: 'count'}, 'count')))
    const stillOpen = counts.reduce((sum, c) => sum + c.open, 0)
    const held = await server.memory()
    const n = opened.ok
    return {
      wanted: perRoom * IDLE_ROOMS,
      opened: n,
      failed: opened.failed,
      error: opened.error,
      openSeconds,
      stillOpen,
      serverConnections: held.connections,
      rssPerConnection: (after.rss - before.rss) / n,
      heapPerConnection: (after.heapUsed + after.external - before.heapUsed - before.external) / n,
    }
  } finally {
    await Promise.all(loadgens.map((loadgen) => loadgen.stop()))
    await server.stop()
  }
}

/** The bars this run measured (a system left out by --systems measures none of its bars): name → met. */
function bars(fan, idles) {
  const met = {}
  if (fan?.mesh && fan.ws) met.meshVsWs = fan.mesh.rate / fan.ws.rate >= BAR_VS_WS
  if (fan?.mesh && fan.socketio) met.meshVsSocketIo = fan.mesh.rate / fan.socketio.rate >= BAR_VS_SOCKETIO
  if (idles?.mesh) {
    const m = idles.mesh
    met.idleHeld = m.opened === m.wanted && m.stillOpen === m.wanted && m.serverConnections >= m.wanted
    met.idleMemory = m.rssPerConnection <= GOAL_BYTES_PER_IDLE
  }
  return met
}

function report(fan, idles) {
  const kb = (bytes) => `${fmt(bytes / 1024, 1)} KB`
  const lines = []
  lines.push(`relay benchmark · node ${process.version} · ${cpus().length} CPUs · load average ${loadavg()[0].toFixed(1)} at the end · loopback`)
  if (fan) {
    lines.push('', `broadcast fan-out: ${fmt(MEMBERS)} members in one room, ${MESSAGES} messages × ${ROUNDS} rounds (median), paced latency at ${RATE} msg/s`)
    lines.push(`${''.padEnd(12)}${'deliveries/s'.padStart(14)}${'per CPU-s'.padStart(12)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'paced p50'.padStart(11)}${'paced p99'.padStart(11)}`)
    for (const system of SYSTEMS) {
      const r = fan[system]
      lines.push(`${NAMES[system].padEnd(12)}${fmt(r.rate).padStart(14)}${fmt(r.perCpuSecond).padStart(12)}${fmt(r.p50, 1).padStart(9)}${fmt(r.p99, 1).padStart(9)}${fmt(r.paced?.p50, 2).padStart(11)}${fmt(r.paced?.p99, 2).padStart(11)}`)
    }
    const bar = (other, minimum, unit) => {
      const wall = fan.mesh.rate / fan[other].rate
      const cpu = fan.mesh.perCpuSecond / fan[other].perCpuSecond
      return `mesh / ${NAMES[other].padEnd(9)} = ${wall.toFixed(2)}${unit} deliveries/s, ${cpu.toFixed(2)}${unit} per server CPU-s   (bar ≥ ${minimum}${unit})  ${wall >= minimum ? 'PASS' : 'MISS'}`
    }
    if (fan.mesh && fan.ws) lines.push(bar('ws', BAR_VS_WS, ''))
    if (fan.mesh && fan.socketio) lines.push(bar('socketio', BAR_VS_SOCKETIO, '×'))
  }
  if (idles) {
    lines.push('', `idle connections: ${fmt(IDLE)} per server in ${IDLE_ROOMS} rooms, held ${HOLD_S} s`)
    lines.push(`${''.padEnd(12)}${'opened'.padStart(9)}${'held'.padStart(9)}${'open s'.padStart(8)}${'RSS/conn'.padStart(11)}${'heap/conn'.padStart(11)}`)
    for (const system of SYSTEMS) {
      const r = idles[system]
      lines.push(`${NAMES[system].padEnd(12)}${fmt(r.opened).padStart(9)}${fmt(Math.min(r.stillOpen, r.serverConnections)).padStart(9)}${fmt(r.openSeconds, 1).padStart(8)}${kb(r.rssPerConnection).padStart(11)}${kb(r.heapPerConnection).padStart(11)}`)
    }
    if (idles.mesh) {
      const m = idles.mesh
      const heldAll = m.opened === m.wanted && m.stillOpen === m.wanted && m.serverConnections >= m.wanted
      lines.push(`mesh holds ${fmt(m.wanted)} idle connections on one node: ${heldAll ? 'yes' : `NO (${m.opened} opened, ${m.stillOpen} still open${m.error ? `, first error: ${m.error}` : ''})`}`)
      lines.push(`mesh memory per idle connection = ${kb(m.rssPerConnection)} RSS   (goal ≤ ${GOAL_BYTES_PER_IDLE / 1024} KB)  ${m.rssPerConnection <= GOAL_BYTES_PER_IDLE ? 'PASS' : 'MISS'}`)
    }
  }
  return lines.join('\n')
}

const fan = MEMBERS > 0 && MESSAGES > 0 ? await fanOut() : undefined
let idles
if (IDLE > 0) {
  idles = {}
  for (const system of SYSTEMS) {
    log(`idle: ${fmt(IDLE)} connections to ${NAMES[system]}`)
    idles[system] = await idle(system)
  }
}
if (flags.json) process.stdout.write(JSON.stringify({node: process.version, cpus: cpus().length, members: MEMBERS, messages: MESSAGES, rounds: ROUNDS, fan, idles, bars: bars(fan, idles)}) + '\n')
else process.stdout.write(report(fan, idles) + '\n')
// Like the other benchmarks: exit 1 when a bar that was measured is missed.
process.exit(Object.values(bars(fan, idles)).every(Boolean) ? 0 : 1)
