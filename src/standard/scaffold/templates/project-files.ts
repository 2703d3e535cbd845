import {stringify} from 'yaml'
import {CURRENT_STANDARD_VERSION} from '../../constants.js'
import type {InitAnswers} from '../answers.js'
import {DAEMON_PORT, SCAFFOLD_MODULES} from '../constants.js'

/** spec "Bootstrap file": `mesh_version` 1 and `hub {url, docs}`, nothing else. */
export function bootstrapJson(answers: InitAnswers): string {
  return `${JSON.stringify({mesh_version: 1, hub: {url: answers.hub, docs: answers.hubDocs}}, null, 2)}\n`
}

/** The cluster relay's WebSocket for this project on the hub (cluster spec `/v1/clusters/<id>/ws`). */
export function clusterEndpoint(answers: InitAnswers): string {
  const url = new URL(answers.hub)
  url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:'
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/clusters/${answers.id}/ws`
  return url.toString()
}

/** The site of the hub, where `/standard` lives. */
const standardUrl = (answers: InitAnswers) => `${answers.hub}/standard`

/**
 * spec cluster.yaml with v13's module layout: one `project` area without
 * parent or path, its four children with `parent: project`.
 */
export function clusterYaml(answers: InitAnswers): string {
  const document = {
    version: 1,
    id: answers.id,
    type: answers.type,
    name: answers.name,
    transport: {workflow: 'websocket', endpoint: clusterEndpoint(answers)},
    bootstrap: {hub: answers.hub, standard: standardUrl(answers)},
    architect: {port: DAEMON_PORT},
    admission: {mode: 'pubkey', approval: 'manual'},
    modules: SCAFFOLD_MODULES.map((module) => ({
      id: module.id,
      kind: module.kind,
      name: module.name,
      ...('parent' in module ? {parent: module.parent} : {}),
      description: module.description,
      task_prefix: module.prefix,
    })),
  }
  return [
    '# Identity, transport, admission and modules of this project (mesh standard: cluster.yaml).',
    '# Code modules are peers of `project` with a `path`; `task_prefix` sets the prefix of their task ids.',
    stringify(document, {lineWidth: 0}),
  ].join('\n')
}

export const standardVersionFile = () => `${CURRENT_STANDARD_VERSION}\n`

/** spec: public/README.md — how to join. */
export function publicReadme(answers: InitAnswers): string {
  return `# ${answers.name}

This folder is the public face of the **${answers.id}** project: who it is, how it talks, and who may join.

## What is here

- [cluster.yaml](cluster.yaml) — identity, transport, admission rules, members and modules.
- [AGENT_INSTRUCTIONS.md](AGENT_INSTRUCTIONS.md) — the rules every AI assistant follows here; \`mesh render\` copies it into CLAUDE.md, AGENTS.md and GEMINI.md.
- [RESOURCES.md](RESOURCES.md) — the network's public resources, with this project's own notes below the marker.

## How to join

1. Install the \`mesh\` CLI and clone this repository.
2. Create your key pair and send your public key and its \`SHA256:\` fingerprint to a coordinator listed under \`members\` in cluster.yaml.
3. Admission here is \`pubkey\` with \`manual\` approval: a coordinator adds you to \`members\` in a commit, and from then on your agents connect to ${clusterEndpoint(answers)}.
4. Read \`.mesh/context/\` before your first task, and run \`mesh validate\` before you push.
`
}
