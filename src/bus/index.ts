export {createLocalBus, type Bus, type BusHandler, type BusStatus} from './bus.js'
// createNatsBus lives in ./nats.js and is imported lazily by callers, so the nats client loads only when used.
