export {createLocalBus, type Bus, type BusHandler, type BusStatus} from './bus.js'
// openBus imports ./nats.js lazily, so the nats client loads only when a NATS URL is given.
export {openBus, type OpenBusOptions} from './open.js'
