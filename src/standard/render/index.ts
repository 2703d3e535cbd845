/** Rendering of AGENT_INSTRUCTIONS.md into CLAUDE.md, AGENTS.md, GEMINI.md, and of RESOURCES.md (spec v17, v18). */
export {renderAgentInstructions, planTargets, type RenderedTarget, type TargetOutcome} from './agent-instructions.js'
export {parseMarkedFile, renderTarget, INSTRUCTION_MARKERS, type MarkedFile} from './markers.js'
export {renderResources, replaceResourcesText} from './resources.js'
export {AGENT_INSTRUCTIONS_SOURCE, RESOURCES_FILE} from './constants.js'
