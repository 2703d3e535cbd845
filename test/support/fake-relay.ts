/**
 * A tiny, spec-faithful stand-in for the cluster relay (cluster-service.md
 * "Endpoints", "Server frames", DECISIONS "Cluster relay"), used by the
 * client tests for what the real relay cannot be made to do on cue: drop a
 * socket, close with a chosen reason, refuse the next upgrade. The CLI
 * integration tests run against the real relay.
 */
import {randomBytes} from 'node:crypto'
import {createServer, type IncomingMessage, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {WebSocketServer, type WebSocket} from 'ws'

interface FakeCluster {
  id: string
  name: string | null
  visibility: 'private' | 'public'
  token: string
  adminToken: string
  members: Set<{socket: WebSocket; agent: string; did: string | null; vis: string}>
}

export interface FakeRelay {
  url: string
  port: number
  /** Creates a cluster directly (same as POST /v1/clusters). */
  create(input?: {name?: string; visibility?: 'private' | 'public'}): {cluster_id: string; token: string; admin_token: string}
  /** Sends `closed {reason}` to every socket of a cluster, then closes them. */
  kick(clusterId: string, reason: string): void
  /** Drops every socket without a `closed` frame (a network failure). */
  dropAll(): void
  /** The next n upgrades are refused with this HTTP status. */
  refuseNext(status: number, n?: number): void
  /** Upgrades seen so far (accepted or refused). */
  readonly upgrades: number
  close(): Promise<void>
}

const json = (status: number, body: unknown) => ({status, body: JSON.stringify(body)})
const errorBody = (status: number, code: string, message: string) => json(status, {error: {code, message}})

export async function startFakeRelay(): Promise<FakeRelay> {
  const clusters = new Map<string, FakeCluster>()
  const wss = new WebSocketServer({noServer: true})
  let refusals: {status: number; left: number} | undefined
  let upgrades = 0

  const create = (input: {name?: string; visibility?: 'private' | 'public'} = {}) => {
    const cluster: FakeCluster = {
      id: 'c_' + randomBytes(16).toString('base64url'),
      name: input.name ?? null,
      visibility: input.visibility ?? 'private',
      token: 'ck_' + randomBytes(16).toString('base64url'),
      adminToken: 'ak_' + randomBytes(16).toString('base64url'),
      members: new Set(),
    }
    clusters.set(cluster.id, cluster)
    return {cluster_id: cluster.id, token: cluster.token, admin_token: cluster.adminToken}
  }
  const kick = (clusterId: string, reason: string) => {
    const cluster = clusters.get(clusterId)
    for (const member of cluster?.members ?? []) {
      member.socket.send(JSON.stringify({type: 'closed', reason}))
      member.socket.close(1000)
    }
  }

  const route = async (request: IncomingMessage, text: string) => {
    const url = new URL(request.url ?? '/', 'http://x')
    const match = /^\/v1\/clusters(?:\/([^/]+))?$/.exec(url.pathname)
    if (!match) return errorBody(404, 'not_found', 'No route')
    const id = match[1] && decodeURIComponent(match[1])
    if (request.method === 'POST' && !id) {
      const input = text ? JSON.parse(text) : {}
      const made = create(input)
      return json(201, {...made, visibility: input.visibility ?? 'private', ws: `ws://x/v1/clusters/${made.cluster_id}/ws`, protocol: 'mesh-cluster/1'})
    }
    if (request.method === 'GET' && !id) {
      const publicOnes = [...clusters.values()].filter((c) => c.visibility === 'public')
      return json(200, {clusters: publicOnes.map((c) => ({id: c.id, name: c.name, online: c.members.size})), count: publicOnes.length})
    }
    const cluster = id ? clusters.get(id) : undefined
    if (request.method === 'GET' && cluster?.visibility === 'public') return json(200, {cluster: {cluster_id: cluster.id, name: cluster.name}})
    if (request.method === 'DELETE' && cluster) {
      if (request.headers['x-cluster-token'] !== cluster.adminToken) return errorBody(401, 'unauthorized', 'Admin token required')
      kick(cluster.id, 'deleted')
      clusters.delete(cluster.id)
      return json(200, {ok: true, cluster_id: cluster.id})
    }
    return errorBody(404, 'cluster_not_found', 'No such cluster')
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      route(request, Buffer.concat(chunks).toString('utf8')).then(({status, body}) => {
        response.writeHead(status, {'content-type': 'application/json'}).end(body)
      })
    })
  })

  server.on('upgrade', (request, socket, head) => {
    upgrades += 1
    const refuse = (status: number, code: string) => {
      const body = JSON.stringify({error: {code, message: `refused (${code})`}})
      socket.end(`HTTP/1.1 ${status} Refused\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`)
    }
    if (refusals && refusals.left > 0) {
      refusals.left -= 1
      return refuse(refusals.status, 'refused_by_test')
    }
    const url = new URL(request.url ?? '/', 'http://x')
    const match = /^\/v1\/clusters\/([^/]+)\/ws$/.exec(url.pathname)
    const cluster = match ? clusters.get(decodeURIComponent(match[1])) : undefined
    if (!cluster) return refuse(404, 'cluster_not_found')
    if (cluster.visibility === 'private' && url.searchParams.get('token') !== cluster.token) return refuse(401, 'unauthorized')
    wss.handleUpgrade(request, socket, head, (ws) => {
      const member = {socket: ws, agent: url.searchParams.get('agent') ?? 'anon', did: url.searchParams.get('did'), vis: url.searchParams.get('vis') ?? 'public'}
      const visible = (m: typeof member) => m.vis !== 'ghost'
      const others = () => [...cluster.members].filter((m) => m !== member)
      const announce = (status: string) => {
        if (!visible(member)) return
        for (const peer of others()) peer.socket.send(JSON.stringify({type: 'presence', agent: member.agent, did: member.did, status}))
      }
      cluster.members.add(member)
      ws.send(JSON.stringify({type: 'ready', you: member.agent, you_did: member.did, public: cluster.visibility === 'public', owner: false, online: [...cluster.members].filter(visible).map((m) => m.agent)}))
      announce('online')
      ws.on('message', (data) => {
        let frame: {to?: string; payload?: unknown}
        try {
          frame = JSON.parse(data.toString())
        } catch {
          frame = {payload: data.toString()}
        }
        const to = typeof frame.to === 'string' ? frame.to : null
        const message = JSON.stringify({type: 'message', from: member.agent, from_did: member.did, to, ts: new Date().toISOString(), payload: frame.payload})
        let delivered = 0
        for (const peer of others()) {
          if (to !== null && peer.agent !== to) continue
          peer.socket.send(message)
          if (visible(peer)) delivered += 1
        }
        ws.send(JSON.stringify({type: 'ack', to, delivered}))
      })
      ws.on('close', () => {
        cluster.members.delete(member)
        announce('offline')
      })
    })
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    create,
    kick,
    dropAll() {
      for (const cluster of clusters.values()) for (const member of cluster.members) member.socket.terminate()
    },
    refuseNext(status, n = 1) {
      refusals = {status, left: n}
    },
    get upgrades() {
      return upgrades
    },
    async close() {
      for (const client of wss.clients) client.terminate()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
