/** The site's escaping template: the shared one of src/http/html.ts (the daemon's IDE pages use it too). */
export * from '../../http/html.js'
