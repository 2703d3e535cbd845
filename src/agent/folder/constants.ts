/** The agent folder `mesh agent serve` runs (DECISIONS: Agent kit, Agent folder), named once. */

/** The PublicCard the folder serves at `/.well-known/agent.json`. */
export const CARD_FILE = 'agent.json'

/** The skill handlers: default export skill id → `async (input, ctx) => output`. Exactly one of these. */
export const HANDLER_FILES = ['handlers.js', 'handlers.mjs'] as const

/** The agent's own data (its pay-per-call SQLite) when `--data` is not given: inside the folder, hidden. */
export const DEFAULT_DATA_DIR_NAME = '.mesh-agent'

/** Where to read about the folder, in error messages. */
export const FOLDER_DOCS = 'docs/agent-serve.md'

/**
 * The public JSON-RPC node of each Solana network, used when `--rpc-url` is
 * not given (spec Versioning 5: network and node are configuration only).
 * Public nodes are rate-limited: production agents pass their own.
 */
export const PUBLIC_RPC_URLS: Readonly<Record<string, string>> = {
  'solana-devnet': 'https://api.devnet.solana.com',
  'solana-testnet': 'https://api.testnet.solana.com',
  solana: 'https://api.mainnet-beta.solana.com',
  'solana-mainnet': 'https://api.mainnet-beta.solana.com',
}

/** The public node of `network`, or undefined when mesh knows none (then `--rpc-url` is required). */
export const defaultRpcUrl = (network: string): string | undefined => (Object.hasOwn(PUBLIC_RPC_URLS, network) ? PUBLIC_RPC_URLS[network] : undefined)
