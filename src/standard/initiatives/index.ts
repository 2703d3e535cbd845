/** Initiative authoring: create and list `.mesh/roadmap/initiatives/<id>.md`. */
export {createInitiative, newInitiativeBody, type CreateInitiativeInput, type CreatedInitiative} from './create.js'
export {listInitiatives, type InitiativeSummary} from './list.js'
export {initiativesHeldActive, heldActiveMessage, type HeldActive} from './held-active.js'
export {createFileExclusive} from '../../lib/exclusive-create.js'
export {INITIATIVE_STATUSES, INITIATIVES_DIR} from './constants.js'
