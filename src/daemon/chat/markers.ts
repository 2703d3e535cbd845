/**
 * The markers an agent writes in its output to talk to the daemon
 * (docs/daemon.md, Chat — markers): fenced blocks whose info string is
 * `mesh-report`, `mesh-delegate`, `mesh-become` or `mesh-commit`, with a JSON
 * (or YAML) object inside. They are removed from the text the operator sees:
 * spec v38, reports are agent-to-agent, never shown as raw JSON.
 */
import {parse as parseYaml} from 'yaml'
import type {Marker, MarkerKind} from './types.js'

const KINDS: readonly MarkerKind[] = ['report', 'delegate', 'become', 'commit']

/** A fence opening ```mesh-<name> (three or more backticks), its body, and the same fence closing it. */
const FENCE = /^(`{3,})[ \t]*mesh-([a-z]+)[ \t]*\r?\n([\s\S]*?)\r?\n\1[ \t]*$/gm

function objectOf(body: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    // Agents write YAML as often as JSON; YAML also reads most JSON that is slightly off.
    value = parseYaml(body)
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('the block is not an object')
  return value as Record<string, unknown>
}

export interface ParsedOutput {
  markers: Marker[]
  /** The output with every marker block removed and the blank lines it left collapsed. */
  text: string
}

export function parseMarkers(output: string): ParsedOutput {
  const markers: Marker[] = []
  const text = output.replace(FENCE, (_block, _fence: string, name: string, body: string) => {
    if (!(KINDS as readonly string[]).includes(name)) {
      markers.push({kind: 'invalid', name: `mesh-${name}`, error: `unknown marker mesh-${name}; known: ${KINDS.map((k) => `mesh-${k}`).join(', ')}`})
      return ''
    }
    try {
      markers.push({kind: name as MarkerKind, data: objectOf(body)})
    } catch (error) {
      markers.push({kind: 'invalid', name: `mesh-${name}`, error: `mesh-${name} is not a JSON or YAML object: ${(error as Error).message.split('\n')[0]}`})
    }
    return ''
  })
  return {markers, text: text.replace(/\n{3,}/g, '\n\n').trim()}
}
