/** `mesh init`: scaffolding the .mesh/ standard into a repository. */
export {scaffoldProject, type ScaffoldResult, type ScaffoldEntry, type FileOutcome} from './init.js'
export {completeAnswers, checkAnswer, clusterIdFrom, nameFromFolder, type InitAnswers} from './answers.js'
export {readExistingAnswers} from './existing.js'
export {mergeDenyList} from './gitignore.js'
export {DEFAULT_HUB_URL, PROJECT_TYPES, DEFAULT_PROJECT_TYPE} from './constants.js'
export {promptAnswers} from './prompt.js'
