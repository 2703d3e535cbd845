/** The generated roadmap: `.mesh/roadmap/state.json` and `state.js`. */
export {buildRoadmap, computeRoadmap, renderRoadmap, writeRoadmapFiles, type RoadmapState, type RoadmapBuildResult, type RoadmapFileWriter} from './build.js'
export {stableStringify} from './stable-json.js'
export {ROADMAP_GLOBAL, ROADMAP_STATE_JS, ROADMAP_STATE_JSON} from './constants.js'
