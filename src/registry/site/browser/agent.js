// The agent page's small script: a copy button on every command (added
// here, so without script there is no dead button and the commands stay
// selectable text), and the live state: the page follows the `network`
// topic of the site's shared stream (live.js; event `agent`, data {id,
// online, last_seen, …}) and flips this agent's state without a reload.
'use strict'

function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text)
  // http:// pages (a registry on a LAN) have no async clipboard: select and copy.
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.className = 'visually-hidden'
  document.body.append(area)
  area.select()
  const ok = document.execCommand('copy')
  area.remove()
  return ok ? Promise.resolve() : Promise.reject(new Error('copy refused'))
}

function addCopyButtons() {
  for (const block of document.querySelectorAll('.command')) {
    const code = block.querySelector('pre.cmd code')
    if (!code || block.querySelector('button.copy')) continue
    const label = block.querySelector('.command-label')
    const button = document.createElement('button')
    button.type = 'button'
    button.className = 'copy'
    // The visible word starts the accessible name ("Copy the curl command"), as WCAG 2.5.3 asks.
    const word = document.createElement('span')
    word.textContent = 'Copy'
    word.setAttribute('aria-live', 'polite')
    const what = document.createElement('span')
    what.className = 'visually-hidden'
    what.textContent = ` the ${label ? label.textContent : ''} command`
    button.append(word, what)
    button.addEventListener('click', () => {
      copyText(code.textContent).then(
        () => {
          word.textContent = 'Copied'
          button.dataset.copied = 'true'
          setTimeout(() => {
            word.textContent = 'Copy'
            delete button.dataset.copied
          }, 2000)
        },
        () => {
          word.textContent = 'Select and copy'
        },
      )
    })
    block.append(button)
  }
}

function followState() {
  const page = document.querySelector('.agent-page[data-agent-id]')
  const target = document.querySelector('[data-agent-state]')
  if (!page || !target || !globalThis.meshLive) return
  const id = page.dataset.agentId
  const show = (data) => {
    const current = target.querySelector('.state')
    const lastSeen = typeof data.last_seen === 'string' ? data.last_seen : null
    if (current && current.dataset.online === String(data.online) && data.online) return
    target.replaceChildren(globalThis.meshSite.stateElement(data.online, lastSeen))
    page.classList.toggle('is-online', data.online)
    page.classList.toggle('is-offline', !data.online)
  }
  globalThis.meshLive.subscribe('network', {
    event(name, data) {
      if (name === 'agent' && data && data.id === id && typeof data.online === 'boolean') show(data)
    },
  })
}

addCopyButtons()
followState()
