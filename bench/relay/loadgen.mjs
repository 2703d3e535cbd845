// Load generator process (forked by run.mjs, IPC with advanced serialization).
// Opens many client connections and counts what they receive. Receivers stay
// cheap: a frame counts when its raw bytes hold the round's tag; only every
// SAMPLE_EVERY-th connection parses frames to measure latency. Commands:
//   {op: 'open', system, targets: [{http, room, token?, count}], prefix} → {op: 'opened', ok, failed, error?}
//   {op: 'expect', system, tag, perConnection}  → {op: 'expecting'}, later {op: 'done', received, lastAt, latencies}
//   {op: 'quiet', ms}                            → {op: 'quiet'} once no frame arrived for `ms`
//   {op: 'count'}                                → {op: 'count', open}
//   {op: 'close'}                                → closes everything and exits
import {now, openClient, payloadOf} from './clients.mjs'

const OPEN_CONCURRENCY = 64
const SAMPLE_EVERY = 10
const bySystem = new Map() // system → [{client, received, sampled}]
let lastFrameAt = now()
let job

function onFrame(system, entry, frame) {
  lastFrameAt = now()
  if (!job || job.system !== system) return
  const ours = Buffer.isBuffer(frame) ? frame.indexOf(job.needle) !== -1 : frame?.payload?.tag === job.tag
  if (!ours) return
  const at = now()
  job.received += 1
  if (entry.sampled) job.latencies[job.filled++] = at - payloadOf(frame).t
  entry.received += 1
  if (entry.received === job.perConnection) {
    job.complete += 1
    job.lastAt = at
    if (job.complete === job.entries.length) {
      const done = job
      job = undefined
      process.send({op: 'done', tag: done.tag, received: done.received, lastAt: done.lastAt, latencies: done.latencies.subarray(0, done.filled)})
    }
  }
}

async function openAll({system, targets, prefix}) {
  const work = targets.flatMap((target) => Array.from({length: target.count}, (_, i) => ({...target, agent: `${prefix}-${target.room.slice(-6)}-${i}`})))
  const entries = bySystem.get(system) ?? []
  bySystem.set(system, entries)
  let ok = 0
  let failed = 0
  let firstError
  let next = 0
  const worker = async () => {
    while (next < work.length) {
      const target = work[next++]
      const entry = {client: undefined, received: 0, sampled: entries.length % SAMPLE_EVERY === 0}
      try {
        entry.client = await openClient(system, target, (frame) => onFrame(system, entry, frame))
        entries.push(entry)
        ok += 1
      } catch (error) {
        failed += 1
        firstError ??= String(error?.message ?? error)
      }
    }
  }
  await Promise.all(Array.from({length: OPEN_CONCURRENCY}, worker))
  process.send({op: 'opened', ok, failed, error: firstError})
}

process.on('message', (command) => {
  switch (command.op) {
    case 'open':
      return void openAll(command)
    case 'expect': {
      const entries = bySystem.get(command.system) ?? []
      for (const entry of entries) entry.received = 0
      const sampled = entries.filter((entry) => entry.sampled).length
      job = {...command, needle: Buffer.from(`"tag":"${command.tag}"`), entries, complete: 0, received: 0, filled: 0, lastAt: 0, latencies: new Float64Array(sampled * command.perConnection)}
      return void process.send({op: 'expecting', tag: command.tag})
    }
    case 'quiet': {
      const wait = () => (now() - lastFrameAt >= command.ms ? process.send({op: 'quiet'}) : setTimeout(wait, 50))
      return void wait()
    }
    case 'count': {
      let open = 0
      for (const entries of bySystem.values()) for (const entry of entries) if (entry.client.open()) open += 1
      return void process.send({op: 'count', open})
    }
    case 'close':
      for (const entries of bySystem.values()) for (const entry of entries) entry.client.close()
      setTimeout(() => process.exit(0), 200)
  }
})
process.on('disconnect', () => process.exit(0))
