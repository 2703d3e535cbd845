/** The generated roadmap: `.mesh/roadmap/state.json` and `state.js`. */
export {buildRoadmap, computeRoadmap, renderRoadmap, type RoadmapState, type RoadmapBuildResult} from './build.js'
export {stableStringify} from './stable-json.js'
