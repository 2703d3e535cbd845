import type {InitAnswers} from '../answers.js'
import type {CONTEXT_STEMS} from '../constants.js'

type Stem = (typeof CONTEXT_STEMS)[number]

/**
 * spec v14: the five required context files, frontmatter only `title` and
 * `updated`, each well under the 200-word warning line so a new project starts
 * with room to fill in (the whole tree has 3000 words).
 */
export function contextFiles(answers: InitAnswers, today: string): Record<Stem, string> {
  const file = (title: string, body: string) => `---\ntitle: ${title}\nupdated: ${today}\n---\n\n${body}`
  return {
    overview: file(
      'Overview',
      `# ${answers.name}\n\nOne paragraph every agent reads first: what ${answers.name} is, who it is for, and where it stands today.\n\nReplace this text with that paragraph. Keep it short; the other context files hold the details, and \`.mesh/docs/\` holds everything longer.\n`,
    ),
    product: file(
      'Product',
      `# Product\n\n- **Users**: who uses ${answers.name} and what they come to do.\n- **Promise**: the one thing it must always do well.\n- **Out of scope**: what it deliberately does not do.\n- **Measures**: how we know it works for its users.\n`,
    ),
    stack: file(
      'Stack',
      `# Stack\n\n- **Languages and runtimes**: with the versions that matter.\n- **Frameworks and key libraries**: and why each was chosen.\n- **Build, test, run**: the exact commands.\n- **Hosting**: where each module runs (see \`.mesh/public/links.yaml\` once it exists).\n`,
    ),
    architecture: file(
      'Architecture',
      `# Architecture\n\nThe parts of ${answers.name} and how they talk: one line per module of \`cluster.yaml\`, then the main flows of data between them.\n\nRecord each lasting choice in \`decisions/YYYY-MM-DD-<slug>.md\` (at most 100 words) and link it here.\n`,
    ),
    constraints: file(
      'Constraints',
      `# Constraints\n\nRules no change may break. Keep each to one line with its reason:\n\n- Security and privacy rules (secrets never in the repository or in logs).\n- Compatibility promises (APIs, file formats, supported platforms).\n- Budgets (latency, cost, size) and legal or licence limits.\n`,
    ),
  }
}
