/**
 * The Team view (issue 22, deliverable 4; docs/ide.md, Team): the shell is
 * rendered here — the roster, the architect's panel, the open requests, the
 * conversations, the chat pane with its turn stream and composer, the queue —
 * and `team.js`, `team-stream.js` and `team-queue.js` fill it from the
 * daemon's routes (`GET /team`, `/chat/convs`, `/chat/delegations`,
 * `/chat/queues`, `/architect`, a conversation's thread and queue) and keep
 * it current from `/events`. Nothing of the team's state is in the page
 * itself: agent output only ever reaches it as text nodes.
 */
import {html} from '../../../http/html.js'
import type {StaticAssets} from '../../../http/static-assets.js'
import type {DaemonContext} from '../../context.js'
import {renderIdePage} from '../frame.js'

const MAIN = html`<h1>Team</h1>
<div class="team-top">
<section class="panel roster" aria-labelledby="roster-title">
<h2 id="roster-title">Roster</h2>
<table id="roster">
<caption class="visually-hidden">Team members, their live state, access level and exposure</caption>
<thead><tr><th scope="col">Member</th><th scope="col">State</th><th scope="col">Access</th><th scope="col">Exposure</th><th scope="col">Client</th></tr></thead>
<tbody id="roster-rows"><tr><td colspan="5">Reading the team…</td></tr></tbody>
</table>
</section>
<section class="panel architect" aria-labelledby="architect-title">
<h2 id="architect-title">Architect</h2>
<p id="architect-status">Reading the architect…</p>
<p id="architect-last" class="hint"></p>
<div class="buttons">
<button type="button" id="architect-run">Run over the board</button>
<button type="button" id="architect-stop" class="quiet">Stop the architect</button>
</div>
</section>
<section class="panel requests" aria-labelledby="requests-title">
<h2 id="requests-title">Open requests <span class="count" id="requests-count">0</span></h2>
<ul id="requests" class="plain"></ul>
</section>
</div>
<div class="chat-layout">
<nav class="panel convs" aria-labelledby="convs-title">
<h2 id="convs-title">Conversations</h2>
<ul id="conv-list" class="plain"></ul>
</nav>
<section class="panel chat" aria-labelledby="chat-title">
<div class="chat-head">
<h2 id="chat-title">New conversation</h2>
<p id="chat-state" class="hint"></p>
<button type="button" id="chat-stop" class="danger" hidden>Stop the running turn</button>
</div>
<div id="stream" class="stream" tabindex="0" role="region" aria-labelledby="chat-title" aria-busy="false"></div>
<form id="composer" class="composer">
<label id="composer-member-label">Member <select id="composer-member" name="member"></select></label>
<label class="grow">Message <textarea id="composer-text" name="text" rows="3" required maxlength="65536"></textarea></label>
<div class="buttons">
<button type="submit" id="composer-send">Send</button>
<button type="button" id="composer-queue" class="quiet">Add to queue</button>
</div>
</form>
<p class="hint" id="composer-help">Ctrl+Enter sends. A conversation whose turn is running takes new text in its queue.</p>
</section>
<section class="panel queue" aria-labelledby="queue-title">
<h2 id="queue-title">Queue <span class="count" id="queue-count">0</span></h2>
<p id="queue-state" class="hint"></p>
<button type="button" id="queue-resume" hidden>Resume the queue</button>
<ol id="queue-items" class="plain"></ol>
</section>
</div>`

export function renderTeamPage(context: DaemonContext, assets: StaticAssets, csrf: string): string {
  return renderIdePage(assets, {
    title: 'Team',
    projectId: context.projectId(),
    view: 'team',
    csrf,
    main: MAIN,
    stylesheets: ['team.css'],
    scripts: ['team-stream.js', 'team-queue.js', 'team.js'],
  })
}
