/** The `.mesh/` standard as a library: load, validate, scaffold, render, tasks. No HTTP here. */
export * from './validate/index.js'
export {loadProject} from './project/index.js'
export {parseFrontmatter, splitFrontmatter, stringifyFrontmatter} from './frontmatter.js'
