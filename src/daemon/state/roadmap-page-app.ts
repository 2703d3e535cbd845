/**
 * The script of `.mesh/architect/roadmap.html` (roadmap-page.ts), as the
 * browser runs it: it reads `window.MESH_ROADMAP` (the page's copy of
 * `roadmap/state.js`) and draws the board with `textContent` and
 * `createElement` only — never `innerHTML` nor an attribute a browser would
 * run or load — so a task title is text whatever it holds; control and
 * bidirectional characters are dropped from what is shown. Plain ES2017 with
 * no imports: it is inlined as is (the page must open from disk, with no
 * network), and its hash is the page's only script-src besides the data.
 * ASCII only (non-ASCII text as `\\u` escapes): the hash then holds
 * whatever encoding a browser reads a file from disk in.
 */
export const ROADMAP_PAGE_APP = `(function () {
  'use strict';
  var data = window.MESH_ROADMAP || {};
  var STATUS_ORDER = ['draft', 'backlog', 'next', 'active', 'blocked', 'done'];
  var PRIORITIES = ['critical', 'high', 'medium', 'low'];
  // Control characters and bidirectional overrides are dropped from what a person reads (Trojan Source, CVE-2021-42574).
  var HIDDEN = /[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]/g;
  function str(value) { return (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value)).replace(HIDDEN, ''); }
  function list(value) { return Array.isArray(value) ? value : []; }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = str(text);
    return node;
  }
  function byId(id) { return document.getElementById(id); }

  var all = list(data.tasks);
  var tasks = all.filter(function (task) { return task && !task.archived; });
  var cluster = data.cluster || {};
  var name = str(cluster.name) || str(cluster.id) || 'Project';
  document.title = name + ' \\u00b7 roadmap';
  byId('title').textContent = name;
  var totals = data.totals || {};
  var parts = [tasks.length + ' active task' + (tasks.length === 1 ? '' : 's'), (all.length - tasks.length) + ' archived', list(data.initiatives).length + ' initiative' + (list(data.initiatives).length === 1 ? '' : 's')];
  if (totals.unanchored) parts.push(totals.unanchored + ' without an initiative');
  if (data.standard_version !== null && data.standard_version !== undefined) parts.push('standard v' + str(data.standard_version));
  byId('summary').textContent = parts.join(' \\u00b7 ');

  var statuses = STATUS_ORDER.slice();
  tasks.forEach(function (task) { var status = str(task.status) || 'none'; if (statuses.indexOf(status) < 0) statuses.push(status); });
  var cards = [];
  var board = byId('board');
  statuses.forEach(function (status) {
    var mine = tasks.filter(function (task) { return (str(task.status) || 'none') === status; });
    var column = el('section', 'column');
    column.setAttribute('data-status', status);
    var head = el('h2', null, status + ' ');
    head.appendChild(el('span', 'count', mine.length));
    column.appendChild(head);
    if (mine.length === 0) column.appendChild(el('p', 'empty', '\\u2014'));
    mine.forEach(function (task) {
      var card = el('article', 'task');
      card.setAttribute('data-task', str(task.id));
      var top = el('div', 'top');
      top.appendChild(el('span', 'id', task.id));
      var priority = str(task.priority);
      top.appendChild(el('span', 'priority priority-' + (PRIORITIES.indexOf(priority) >= 0 ? priority : 'other'), priority || 'no priority'));
      card.appendChild(top);
      card.appendChild(el('p', 'title', task.title));
      var meta = [str(task.module), task.initiative ? '#' + str(task.initiative) : '', str(task.owner)].filter(Boolean);
      card.appendChild(el('p', 'meta', meta.join(' \\u00b7 ')));
      var waiting = list(task.waiting_on);
      if (waiting.length > 0 && status !== 'done') card.appendChild(el('p', 'waiting', 'waits on ' + waiting.map(str).join(', ')));
      cards.push({node: card, text: [task.id, task.title, task.module, task.initiative, task.owner, status].map(str).join(' ').toLowerCase()});
      column.appendChild(card);
    });
    board.appendChild(column);
  });

  var filter = byId('filter');
  filter.addEventListener('input', function () {
    var wanted = filter.value.trim().toLowerCase();
    cards.forEach(function (card) { card.node.hidden = wanted !== '' && card.text.indexOf(wanted) < 0; });
  });

  var initiatives = list(data.initiatives);
  var table = byId('initiative-rows');
  if (initiatives.length === 0) byId('initiatives-empty').hidden = false;
  initiatives.forEach(function (initiative) {
    var row = el('tr');
    row.appendChild(el('td', 'id', '#' + str(initiative.id)));
    row.appendChild(el('td', null, initiative.title));
    row.appendChild(el('td', null, initiative.status));
    var progress = initiative.progress || {};
    var total = Number(progress.total) || 0;
    var done = Number(progress.done) || 0;
    var cell = el('td', 'progress');
    var bar = el('div', 'bar');
    var fill = el('div', 'fill');
    fill.style.width = (total > 0 ? Math.round((100 * done) / total) : 0) + '%';
    bar.appendChild(fill);
    cell.appendChild(bar);
    cell.appendChild(el('span', null, done + '/' + total));
    row.appendChild(cell);
    table.appendChild(row);
  });

  var problems = list(data.problems);
  if (problems.length > 0) {
    byId('problems').hidden = false;
    problems.forEach(function (problem) { byId('problem-list').appendChild(el('li', null, str(problem.path) + ': ' + str(problem.problem))); });
  }
})();
`
