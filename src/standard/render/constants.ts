/** spec v18: the source every assistant's instruction file is rendered from. */
export const AGENT_INSTRUCTIONS_SOURCE = 'public/AGENT_INSTRUCTIONS.md'
/** spec v17: the network-resources mirror. */
export const RESOURCES_FILE = 'public/RESOURCES.md'
