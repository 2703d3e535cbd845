/** Plain HTTP calls to a registry, for tests that drive a running one (spawned or in process). */

/** fetch with a JSON body and answer; `raw` sends exact bytes (signed requests). */
export async function call(url: string, init: {method?: string; body?: unknown; raw?: string; token?: string; headers?: Record<string, string>} = {}) {
  const res = await fetch(url, {
    method: init.method ?? (init.body !== undefined || init.raw !== undefined ? 'POST' : 'GET'),
    headers: {'content-type': 'application/json', ...(init.token ? {authorization: `Bearer ${init.token}`} : {}), ...init.headers},
    body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  })
  const text = await res.text()
  return {status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as Record<string, any>}
}

/** Registers an agent and returns its api key and a fresh token. */
export async function registerAgent(baseUrl: string, agentId: string) {
  const reg = await call(`${baseUrl}/v1/agents/register`, {body: {agent_id: agentId, capabilities: ['demo']}})
  if (reg.status !== 201) throw new Error(`register ${agentId}: ${reg.status} ${JSON.stringify(reg.body)}`)
  const token = await call(`${baseUrl}/v1/agents/token`, {body: {agent_id: agentId, api_key: reg.body.api_key}})
  return {apiKey: reg.body.api_key as string, token: token.body.token as string}
}

/** The agent WebSocket of the registry at `baseUrl`, for `token`. */
export const agentWsUrl = (baseUrl: string, token: string) => `${baseUrl.replace(/^http/, 'ws')}/v1/agents/ws?token=${encodeURIComponent(token)}`
