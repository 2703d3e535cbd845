/** Generated roadmap files (spec folder layout: "roadmap/state.json, state.js — no, generated; never hand-edit"). */
export const ROADMAP_STATE_JSON = 'roadmap/state.json'
export const ROADMAP_STATE_JS = 'roadmap/state.js'
/** The global `state.js` assigns, so a static page can load it with a plain script tag. */
export const ROADMAP_GLOBAL = 'window.MESH_ROADMAP'
/** Bumped when the shape of state.json changes incompatibly. */
export const ROADMAP_FORMAT = 1
