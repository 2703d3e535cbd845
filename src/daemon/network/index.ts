/**
 * The network area: `POST /cluster/link` writes the project's link to its
 * cluster while the daemon runs (the daemon is then the one writer of
 * `.mesh/` and of mesh.json; `mesh cluster link` calls it), and announces it
 * so the transport reconnects to the new endpoint without a restart
 * (`cluster.updated`, which the transport and the settings re-read on).
 * docs/network.md; docs/daemon-api.md, Network.
 */
import {createMutex} from '../../lib/mutex.js'
import {assertValid} from '../../lib/schemas.js'
import {CLUSTER_LINK_PATH, CLUSTER_LINKED_EVENT, type ClusterLinkBody} from '../../protocol/cluster-link.js'
import {FILE_EVENT_TYPES} from '../../protocol/watch.js'
import type {DaemonArea} from '../area.js'
import type {DaemonContext} from '../context.js'
import type {Route} from '../route-table.js'
import {applyLink} from './apply-link.js'

export function networkArea(context: DaemonContext): DaemonArea {
  // Two links at once would interleave their four files.
  const mutex = createMutex()
  const routes: Route[] = [
    {
      method: 'POST',
      path: CLUSTER_LINK_PATH,
      auth: 'portal',
      async handle(request) {
        const link = assertValid<ClusterLinkBody>('daemon-cluster-link', await request.body())
        const applied = await mutex.run(() => applyLink({root: context.root, writer: context.writer, link, now: new Date(context.clock())}))
        context.debug.log({lvl: 'info', tag: 'cluster.link', msg: `linked to ${link.visibility} cluster ${link.cluster_id} at ${link.endpoint}`, data: {cluster_id: link.cluster_id, endpoint: link.endpoint}})
        context.events.publish(CLUSTER_LINKED_EVENT, {cluster_id: applied.cluster_id, endpoint: applied.endpoint, visibility: applied.visibility})
        // The daemon's own write is not echoed by the watcher: it says cluster.yaml changed itself.
        context.events.publish(FILE_EVENT_TYPES.cluster, {})
        return applied
      },
    },
  ]
  return {name: 'network', routes}
}
