/** Output formats of `mesh validate`: human, json (the report itself), github annotations, SARIF 2.1.0. */
export {formatHuman, type HumanOptions} from './human.js'
export {formatGithub, type GithubOptions} from './github.js'
export {formatSarif, type SarifOptions} from './sarif.js'
