/**
 * A client that sends pings faster than it takes the pongs owed to it costs
 * only its own socket: ws (maxPendingAutoPongs, 60 by default) terminates it
 * instead of buffering pongs without bound, the member leaves like any other,
 * and the cluster goes on relaying.
 */
import {afterEach, expect, it} from 'vitest'
import {Client, createCluster, join, startRelay, type TestRelay} from '../helpers.js'

let relay: TestRelay
const clients: Client[] = []

afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate()
  await relay?.stop()
})

it('disconnects a ping flooder and keeps serving the others', async () => {
  relay = await startRelay()
  const {cluster_id} = await createCluster(relay.url, {visibility: 'public'})
  const a = await join(relay.url, cluster_id, {agent: 'a'})
  const b = await join(relay.url, cluster_id, {agent: 'b'})
  const flooder = await join(relay.url, cluster_id, {agent: 'flooder'})
  clients.push(a, b, flooder)
  // One write, so the relay reads the whole burst before any pong can leave.
  const socket = (flooder.ws as unknown as {_socket: import('node:net').Socket})._socket
  const ping = Buffer.concat([Buffer.from([0x89, 0x80 | 125, 1, 2, 3, 4]), Buffer.alloc(125, 7)])
  socket.write(Buffer.concat(Array.from({length: 2000}, () => ping)))
  await flooder.closed()
  expect(flooder.closeCode).toBe(1006)
  await a.next((f) => f.type === 'presence' && f.agent === 'flooder' && f.status === 'offline')
  a.send('still here')
  expect((await b.next((f) => f.type === 'message')).payload).toBe('still here')
})
