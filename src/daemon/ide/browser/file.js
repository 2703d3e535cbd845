// A project file opened from the Project view (docs/ide.md, Project): the page's /events
// socket says when the file changes on disk, so what is shown is never silently stale.
'use strict'
;(() => {
  const {events, notify} = globalThis.meshIde
  const shown = document.querySelector('pre.file')?.dataset.path
  events({
    onEvent({data}) {
      if (shown && data && (data.path === shown || data.file === shown)) notify('This file changed on disk since the page was read: reload to see it.', 'info')
    },
  })
})()
