#!/usr/bin/env node
/**
 * The built-in `script` client: the process a turn of a `client: script`
 * member runs (template in ../clients/templates.ts). It reads the turn's
 * facts from MESH_TURN_FILE, drains the prompt on stdin, and plays the first
 * matching reply of the script file named by its argument.
 */
import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {createEmitter} from './emit.js'
import {fillIn, parseScript, pickReply, type TurnFacts} from './script.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function fail(message: string): never {
  process.stderr.write(`script client: ${message}\n`)
  process.exit(2)
}

async function main() {
  const path = process.argv[2]
  if (!path) fail('no script file given')
  // The daemon hands over a private copy of the member's script; messages name the script as the card does.
  const shown = process.env.MESH_SCRIPT_NAME || path
  let script
  try {
    script = parseScript(readFileSync(path, 'utf8'))
  } catch (error) {
    fail(`${shown}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such script file' : (error as Error).message}`)
  }
  let facts: TurnFacts
  try {
    facts = JSON.parse(readFileSync(process.env.MESH_TURN_FILE ?? '', 'utf8')) as TurnFacts
  } catch {
    fail('MESH_TURN_FILE does not name a readable turn file')
  }
  // A client reads its stdin to the end; the prompt is printed back only when the reply asks for it.
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)

  const reply = pickReply(script, facts)
  if (!reply) fail(`no reply of ${shown} matches turn ${facts.turn} (${JSON.stringify(facts.text.slice(0, 80))}) and there is no default`)
  if (reply.ignore_term) process.on('SIGTERM', () => {})
  // In this process group with the same stdout: the turn's output stays open until the group is gone.
  if (reply.child) spawn(process.execPath, ['-e', `${reply.ignore_term ? "process.on('SIGTERM', () => {});" : ''}setInterval(() => {}, 1 << 30)`], {stdio: ['ignore', 'inherit', 'inherit']})
  if (reply.stderr) process.stderr.write(fillIn(reply.stderr, facts) + '\n')
  if (reply.garbage) process.stdout.write(Buffer.from([0xff, 0xfe, 0x00, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0xc3, 0x28, 0x0a, 0x07, 0x08, 0x0a]))
  const prompt = Buffer.concat(chunks).toString('utf8')
  const emit = createEmitter(script.format, {session: facts.session, model: `script:${shown}`, prompt, cwd: process.cwd()}, (chunk) => process.stdout.write(chunk))
  emit.start()
  for (const tool of reply.tools ?? []) {
    if (reply.delay_ms) await sleep(reply.delay_ms)
    emit.tool(tool)
  }
  const lines = fillIn(reply.say ?? '', facts).replace(/\n+$/, '').split('\n')
  if (reply.echo_prompt) lines.push(prompt)
  for (const line of lines) {
    if (reply.delay_ms) await sleep(reply.delay_ms)
    emit.line(line)
  }
  if (reply.crash) process.kill(process.pid, 'SIGKILL')
  if (reply.hang) {
    setInterval(() => {}, 1 << 30)
    return
  }
  emit.finish(lines.join('\n'), reply.usage ?? {}, (reply.exit ?? 0) !== 0)
  process.exitCode = reply.exit ?? 0
}

void main()
