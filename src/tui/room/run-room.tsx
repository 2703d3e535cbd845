import {render} from 'ink'
import type {ClusterConnection} from '../../client/cluster/connection.js'
import {RoomApp, type RoomEnd} from './room-app.js'

export interface RunRoomOptions {
  connection: ClusterConnection
  clusterId: string
  agent: string
  relay: string
}

/**
 * Shows the room view on the terminal until /quit, Ctrl-C, a deleted
 * cluster or a fatal error, then closes the connection. A deleted cluster
 * leaves one plain line under the last frame.
 */
export async function runRoom(options: RunRoomOptions): Promise<RoomEnd> {
  const {connection, clusterId, agent} = options
  let resolveEnd!: (end: RoomEnd) => void
  const ended = new Promise<RoomEnd>((resolve) => (resolveEnd = resolve))
  // Ctrl-C is handled by the view so the socket closes cleanly.
  const instance = render(<RoomApp source={connection} clusterId={clusterId} agent={agent} onExit={(end) => resolveEnd(end)} />, {exitOnCtrlC: false})
  // Failures of the first connect arrive as the `fatal` event the view already handles.
  connection.connect().catch(() => {})
  const end = await ended
  // Ink renders in legacy (synchronous) mode and unmount() flushes the last frame, so the final line is on screen.
  instance.unmount()
  await instance.waitUntilExit()
  connection.close()
  if (end.reason === 'gone') process.stdout.write(`\nCluster ${clusterId} was deleted; leaving.\n`)
  return end
}
