export * from './registry.js'
export * from './cluster.js'
export * from './close-codes.js'
export * from './daemon.js'
