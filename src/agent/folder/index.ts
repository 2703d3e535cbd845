/** The agent folder `mesh agent serve` runs: agent.json + handlers.js|mjs, loaded, checked and served. */
export {loadAgentFolder, type AgentFolder} from './load.js'
export {CARD_FILE, DEFAULT_DATA_DIR_NAME, HANDLER_FILES, PUBLIC_RPC_URLS, defaultRpcUrl} from './constants.js'
