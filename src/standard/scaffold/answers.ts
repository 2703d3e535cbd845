import {basename, resolve} from 'node:path'
import {invalid} from '../../lib/errors.js'
import {kebabCase} from '../../lib/kebab-case.js'
import {CLUSTER_ID, DEFAULT_HUB_URL, DEFAULT_PROJECT_TYPE, MAX_NAME_LENGTH, PROJECT_TYPES, type ProjectType} from './constants.js'

/** What `mesh init` asks (or takes from flags). */
export interface InitAnswers {
  /** Human project name (cluster.yaml `name`). */
  name: string
  /** cluster.yaml `id`. */
  id: string
  type: ProjectType
  /** mesh.json `hub.url`. */
  hub: string
  /** mesh.json `hub.docs`; `<hub>/docs` by default. */
  hubDocs: string
}

/** A cluster id from a name: lower case, runs of other characters one hyphen, at most 40. */
export function clusterIdFrom(name: string): string {
  const id = kebabCase(name).slice(0, 40).replace(/-+$/, '')
  return id.length >= 2 ? id : 'mesh-project'
}

/** A project name from a folder name: `my_app-api` → `My app api`. */
export function nameFromFolder(dir: string): string {
  const words = basename(resolve(dir)).replace(/[-_.]+/g, ' ').trim()
  if (words === '') return 'Mesh project'
  return (words[0].toUpperCase() + words.slice(1)).slice(0, MAX_NAME_LENGTH)
}

/** Throws `usage_…` when a single answer is malformed; returns it cleaned. */
export const checkAnswer = {
  name(value: string): string {
    const name = value.trim()
    if (name === '' || name.length > MAX_NAME_LENGTH || /[\r\n]/.test(name)) {
      throw invalid('usage_name_invalid', `The project name must be one line of 1 to ${MAX_NAME_LENGTH} characters.`, {field: 'name'})
    }
    return name
  },
  id(value: string): string {
    if (!CLUSTER_ID.test(value)) throw invalid('usage_id_invalid', `The project id "${value}" must be 2 to 40 characters of a-z, 0-9 and "-".`, {field: 'id'})
    return value
  },
  type(value: string): ProjectType {
    if (!(PROJECT_TYPES as readonly string[]).includes(value)) {
      throw invalid('usage_type_invalid', `The project type must be one of ${PROJECT_TYPES.join(', ')}.`, {field: 'type'})
    }
    return value as ProjectType
  },
  url(value: string, field: string): string {
    let url: URL
    try {
      url = new URL(value.trim())
    } catch {
      throw invalid(`usage_${field}_invalid`, `The ${field} URL "${value}" is not a URL (e.g. ${DEFAULT_HUB_URL}).`, {field})
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw invalid(`usage_${field}_invalid`, `The ${field} URL must be http(s), got "${value}".`, {field})
    }
    return value.trim().replace(/\/+$/, '')
  },
}

/** Fills every answer not given from the defaults, checking the given ones. */
export function completeAnswers(given: Partial<InitAnswers>, dir: string): InitAnswers {
  const name = checkAnswer.name(given.name ?? nameFromFolder(dir))
  const id = checkAnswer.id(given.id ?? clusterIdFrom(name))
  const type = checkAnswer.type(given.type ?? DEFAULT_PROJECT_TYPE)
  const hub = checkAnswer.url(given.hub ?? DEFAULT_HUB_URL, 'hub')
  const hubDocs = checkAnswer.url(given.hubDocs ?? `${hub}/docs`, 'docs')
  return {name, id, type, hub, hubDocs}
}
