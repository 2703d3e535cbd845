/**
 * A reverse proxy that records what passes through it: the vantage point of
 * whoever runs or taps a server (issue 18's attacker — a registry operator,
 * an agent that forwards). It sends each request on to `target` unchanged
 * (method, path with query, headers, body bytes) and answers with the
 * target's answer; `requests` keeps what the client sent, so a test can
 * replay a signed request elsewhere.
 */
import {once} from 'node:events'
import {createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage} from 'node:http'
import type {AddressInfo} from 'node:net'

export interface RecordedRequest {
  method: string
  /** Path with its query string, as the client sent it. */
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
}

export interface RecordingProxy {
  /** Base URL of the proxy, e.g. http://127.0.0.1:41234. */
  url: string
  requests: RecordedRequest[]
  /** Where requests go; may be set after the proxy started (its URL is often the target's public URL). */
  target: string
  close(): Promise<void>
}

/** Starts the proxy on 127.0.0.1, port 0 (or `port`). */
export async function startRecordingProxy(target = '', port = 0): Promise<RecordingProxy> {
  const proxy: RecordingProxy = {url: '', requests: [], target, close: async () => {}}
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    proxy.requests.push({method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body})
    const to = new URL(req.url ?? '/', proxy.target)
    const onward = httpRequest(to, {method: req.method, headers: req.headers}, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    onward.on('error', (error) => {
      res.writeHead(502, {'content-type': 'application/json'})
      res.end(JSON.stringify({error: {code: 'proxy_failed', message: error.message}}))
    })
    onward.end(body)
  })
  server.listen(port, '127.0.0.1')
  await once(server, 'listening')
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  proxy.close = () => new Promise((resolve) => server.close(() => resolve()))
  return proxy
}

export interface ReplayAnswer {
  status: number
  body: any
}

/**
 * Sends a recorded request, byte for byte, to another server: same method,
 * path, headers (Mesh-Sig included) and body. The Host header is the new
 * server's unless `host` says otherwise (a replayer chooses it freely).
 */
export async function replay(recorded: RecordedRequest, baseUrl: string, options: {host?: string} = {}): Promise<ReplayAnswer> {
  const headers: IncomingHttpHeaders = {...recorded.headers}
  delete headers.host
  delete headers.connection
  const to = new URL(recorded.path, baseUrl)
  if (options.host) headers.host = options.host
  const onward = httpRequest(to, {method: recorded.method, headers})
  onward.end(recorded.body)
  const [answer] = (await once(onward, 'response')) as [IncomingMessage]
  const chunks: Buffer[] = []
  for await (const chunk of answer) chunks.push(chunk as Buffer)
  const text = Buffer.concat(chunks).toString('utf8')
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON: the text is the body
  }
  return {status: answer.statusCode ?? 0, body}
}
