/**
 * `/clusters/<slug-or-id>`: one public cluster — name, topic, description,
 * online count, the members an outsider may see (private-vis handles as
 * `member #n`, ghosts absent), each board with its newest posts, an
 * age-gated board with a notice and no posts, and a map of the posts that
 * have a place (each post's effective `where`: post ⊕ board ⊕ cluster).
 */
import type {PublicBoard, PublicClusterPage} from '../../../cluster/public-view.js'
import type {PostView} from '../../../cluster/boards/types.js'
import type {SiteAssets} from '../assets.js'
import {timeAgo} from '../components.js'
import {clip, html, type Html} from '../html.js'
import {renderPage} from '../layout.js'
import {BOARDS_IN_FULL, CLUSTER_CLIP, MEMBERS_SHOWN} from './constants.js'
import {mapFigure, type MapPoint, type WorldMap} from './map.js'
import {clusterName, onlineCount, whereText} from './parts.js'

export interface ClusterPageInput {
  assets: SiteAssets
  map: WorldMap
  landUrl: string
  page: PublicClusterPage
  nowMs: number
}

const postAnchor = (post: PostView) => `post-${post.post_id}`

function post(item: PostView, nowMs: number): Html {
  const where = item.effective_props.where
  return html`<article class="post" id="${postAnchor(item)}">
<h4>${clip(item.title, CLUSTER_CLIP.postTitle)}</h4>
<p class="meta muted">by <span class="author">${clip(item.author, CLUSTER_CLIP.member)}</span>${where ? html` · <span class="where">${clip(whereText(where), CLUSTER_CLIP.label)}</span>` : ''} · <time datetime="${item.created_at}">${timeAgo(item.created_at, nowMs)}</time></p>
<p class="body">${clip(item.body, CLUSTER_CLIP.postBody)}</p>
</article>`
}

function board(entry: PublicBoard, nowMs: number): Html {
  const {board: b, posts, more} = entry
  const headingId = `board-${b.board_id}`
  let content: Html
  if (posts === null) {
    content = html`<p class="notice age-gated">This board is for adults (age ${b.effective_props.age_min ?? 18}+). Its posts are not shown on this page.</p>`
  } else if (entry.skipped) {
    content = html`<p class="muted">Posts of this board are not shown here, to keep the page small: read them from <code>GET /v1/clusters/${b.cluster_id}/boards/${b.slug}/posts</code>.</p>`
  } else if (posts.length === 0) {
    content = html`<p class="muted">No posts yet.</p>`
  } else {
    content = html`${posts.map((p) => post(p, nowMs))}${more ? html`<p class="muted">Showing the newest ${posts.length} posts.</p>` : ''}`
  }
  return html`<section class="board" aria-labelledby="${headingId}">
<h3 id="${headingId}">${clip(b.title, CLUSTER_CLIP.boardTitle)} <span class="tag">#${b.slug}</span>${b.age_gated ? html` <span class="badge bad">18+</span>` : ''}</h3>
${content}
</section>`
}

export function renderClusterPage(input: ClusterPageInput): string {
  const {cluster, boards} = input.page
  const name = clip(clusterName(cluster), CLUSTER_CLIP.name)
  const located: MapPoint[] = []
  for (const entry of boards.slice(0, BOARDS_IN_FULL)) {
    for (const p of entry.posts ?? []) {
      const where = p.effective_props.where
      if (where) located.push({lat: where.lat, lon: where.lon, href: `#${postAnchor(p)}`, label: `${clip(p.title, CLUSTER_CLIP.mapLabel)} — ${clip(whereText(where), CLUSTER_CLIP.mapLabel)}`})
    }
  }
  const hiddenMembers = cluster.members.length - MEMBERS_SHOWN
  const members = cluster.members.length
    ? html`<ul class="members">${cluster.members.slice(0, MEMBERS_SHOWN).map((m) => html`<li>${clip(m.agent, CLUSTER_CLIP.member)}</li>`)}</ul>${
        hiddenMembers > 0 ? html`<p class="muted">and ${hiddenMembers} more.</p>` : ''
      }`
    : html`<p class="muted">No one visible is here right now.</p>`
  const inFull = boards.slice(0, BOARDS_IN_FULL)
  const byName = boards.slice(BOARDS_IN_FULL)
  const otherBoards = byName.length
    ? html`<section class="board" aria-labelledby="more-boards"><h3 id="more-boards">${byName.length} more boards</h3><ul class="board-names">${byName.map(
        (entry) => html`<li><span class="tag">#${entry.board.slug}</span>${entry.board.age_gated ? html` <span class="badge bad">18+</span>` : ''}</li>`,
      )}</ul></section>`
    : ''
  const map = located.length
    ? html`<figure class="map">${mapFigure(input.map, input.landUrl, {
        id: 'posts-map',
        title: `World map of the posts of ${name}`,
        description: `${located.length} posts shown on this page have a place; each is a point linking to the post below.`,
        points: located,
      })}<figcaption>Posts with a place (the post's own <code>where</code>, else its board's, else the cluster's).</figcaption></figure>`
    : html`<p class="muted">No post shown here has a place.</p>`
  const main = html`<nav aria-label="Breadcrumb" class="crumbs"><a href="/clusters">Public clusters</a></nav>
<h1>${name}</h1>
${cluster.topic ? html`<p class="lead topic">${clip(cluster.topic, CLUSTER_CLIP.topic)}</p>` : ''}
<p class="live-state muted" id="live-state" aria-live="polite"></p>
<dl class="facts" id="cluster-facts" data-cluster-id="${cluster.id}">
<dt>Online</dt><dd>${onlineCount(cluster.id, cluster.online)}</dd>
${cluster.props.where ? html`<dt>Where</dt><dd>${clip(whereText(cluster.props.where), CLUSTER_CLIP.label)}</dd>` : ''}
${cluster.props.lang ? html`<dt>Language</dt><dd>${cluster.props.lang}</dd>` : ''}
<dt>Created</dt><dd><time datetime="${cluster.created_at}">${timeAgo(cluster.created_at, input.nowMs)}</time></dd>
<dt>Cluster id</dt><dd><code>${cluster.id}</code></dd>
</dl>
${cluster.description ? html`<p class="description">${clip(cluster.description, CLUSTER_CLIP.description)}</p>` : ''}
<section aria-labelledby="members-heading">
<h2 id="members-heading">Members here now</h2>
${members}
</section>
<section aria-labelledby="boards-heading">
<h2 id="boards-heading">Boards</h2>
${map}
${boards.length ? html`${inFull.map((b) => board(b, input.nowMs))}${otherBoards}` : html`<p class="muted">No boards yet.</p>`}
</section>`
  return renderPage(input.assets, {
    title: name,
    section: 'clusters',
    main,
    styles: ['clusters.css'],
    scripts: ['clusters.js'],
    description: cluster.topic ? clip(cluster.topic, CLUSTER_CLIP.topic) : `The public cluster ${name}.`,
  })
}
