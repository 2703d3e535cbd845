/**
 * `.mesh/architect/roadmap.html`, the cached visualizer (spec: Folder layout
 * — `architect/`: "cached visualizer"; docs/daemon.md, Generated state): one
 * self-contained file that opens from disk (`file://`) with no server and no
 * network. It carries its own copy of `roadmap/state.js` inline rather than a
 * `<script src="../roadmap/state.js">`: a page and its data written at once
 * can never disagree, and the file still works when it is copied or
 * attached somewhere else.
 *
 * Project text (task titles are anyone's text) is never HTML here: the shell
 * holds none, the data is JSON inside a script with `<`, `>` and `&` escaped
 * (so no text can close the element), and the app draws it with
 * `textContent`. A Content-Security-Policy allows only these two scripts (by
 * hash) and this stylesheet: were anything to slip through, it would not run.
 */
import {createHash} from 'node:crypto'
import {renderRoadmap, type RoadmapState} from '../../standard/roadmap/index.js'
import {ROADMAP_PAGE_APP} from './roadmap-page-app.js'

/**
 * JSON (and so the JS of state.js) with nothing that could end a script
 * element or an HTML comment (`<`, `>`, `&`), and in ASCII: every other
 * character as a `\\u` escape (a JSON string escape, so the value is the
 * same), so the script's CSP hash holds whatever encoding a browser reads a
 * file from disk in.
 */
export const escapeScriptText = (text: string) =>
  text.replace(/[<>&\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

const STYLE = `
:root { color-scheme: light dark; --bg: #f6f7f9; --card: #fff; --line: #d9dde3; --muted: #5f6b7a; --text: #1d2733; --accent: #2f6fde; }
@media (prefers-color-scheme: dark) { :root { --bg: #14181d; --card: #1d232a; --line: #323a44; --muted: #9aa6b5; --text: #e6ebf0; --accent: #6ea0ff; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--text); }
header { padding: 16px 20px 8px; display: flex; flex-wrap: wrap; align-items: baseline; gap: 8px 16px; }
h1 { margin: 0; font-size: 20px; }
#summary { margin: 0; color: var(--muted); flex: 1; }
#filter { font: inherit; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--text); min-width: 220px; }
main { padding: 0 20px 24px; }
#board { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(200px, 1fr); gap: 12px; overflow-x: auto; padding-bottom: 8px; }
.column { background: transparent; min-width: 0; }
.column h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 8px 0; }
.count { display: inline-block; min-width: 20px; padding: 0 6px; border-radius: 10px; background: var(--line); color: var(--text); text-align: center; }
.empty { color: var(--muted); margin: 4px 0; }
.task { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; margin-bottom: 8px; overflow-wrap: anywhere; }
.task[hidden] { display: none; }
.top { display: flex; justify-content: space-between; gap: 8px; font-size: 12px; }
.id { font-weight: 600; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.priority { color: var(--muted); }
.priority-critical { color: #d12c2c; font-weight: 600; }
.priority-high { color: #c46a00; }
.title { margin: 4px 0; }
.meta, .waiting { margin: 0; font-size: 12px; color: var(--muted); }
.waiting { color: #c46a00; }
h2.section { font-size: 16px; margin: 24px 0 8px; }
table { border-collapse: collapse; width: 100%; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.progress { white-space: nowrap; }
.bar { display: inline-block; width: 120px; height: 8px; border-radius: 4px; background: var(--line); margin-right: 8px; vertical-align: middle; overflow: hidden; }
.fill { height: 100%; background: var(--accent); }
footer { color: var(--muted); font-size: 12px; padding: 0 20px 20px; }
`

/** The page for a roadmap state: the same state the daemon writes to `roadmap/state.js` in the same rebuild. */
export function renderRoadmapPage(state: RoadmapState): string {
  const data = escapeScriptText(renderRoadmap(state).js.trimEnd())
  const policy = [`default-src 'none'`, `style-src ${hashOf(STYLE)}`, `script-src ${hashOf(data)} ${hashOf(ROADMAP_PAGE_APP)}`, `base-uri 'none'`, `form-action 'none'`].join('; ')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="generator" content="mesh daemon">
<title>Roadmap</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1 id="title">Roadmap</h1>
<p id="summary"></p>
<input id="filter" type="search" placeholder="Filter tasks" aria-label="Filter tasks">
</header>
<main>
<noscript><p>This page draws the roadmap with JavaScript; the same data is in .mesh/roadmap/state.json.</p></noscript>
<section id="board" aria-label="Tasks by status"></section>
<h2 class="section">Initiatives</h2>
<p id="initiatives-empty" hidden>No initiatives yet.</p>
<table>
<thead><tr><th>Id</th><th>Title</th><th>Status</th><th>Progress</th></tr></thead>
<tbody id="initiative-rows"></tbody>
</table>
<section id="problems" hidden>
<h2 class="section">Files left out</h2>
<ul id="problem-list"></ul>
</section>
</main>
<footer>Generated by the mesh daemon from .mesh/roadmap/state.js, rewritten whenever a task or an initiative changes. Do not edit.</footer>
<script>${data}</script>
<script>${ROADMAP_PAGE_APP}</script>
</body>
</html>
`
}
