import {RULES, type RuleInfo} from '../rules.js'
import type {ValidationReport} from '../types.js'

const LEVEL = {error: 'error', warning: 'warning', info: 'note'} as const

/**
 * A relative path as a SARIF `uri-reference`: each segment percent-encoded,
 * so `#`, `?` and `%` in a file name stay part of the path (encodeURI would
 * leave `#` and `?` to start a fragment or a query).
 */
const pathToUri = (path: string) => path.split('/').map(encodeURIComponent).join('/')

export interface SarifOptions {
  /** mesh's version, shown as the tool version. */
  toolVersion?: string
  /** Prefix that makes repo-root-relative paths relative to the checkout (%SRCROOT%). */
  pathPrefix?: string
  /** The tool the log names (default mesh-validate); `mesh card lint` names itself. */
  tool?: {name: string; informationUri: string}
  /** The rule catalogue listed as the driver's rules and indexed by results (default `mesh validate`'s RULES). */
  rules?: readonly RuleInfo[]
  /**
   * An absolute URI for the one file the findings are in, written as is
   * (no %SRCROOT%): a card read from a URL or from outside the working directory.
   */
  artifactUri?: string
}

/** A SARIF 2.1.0 log with one run: the rule catalogue as driver rules, one result per finding. */
export function formatSarif(report: ValidationReport, options: SarifOptions = {}): Record<string, unknown> {
  const rules = options.rules ?? RULES
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]))
  const tool = options.tool ?? {name: 'mesh-validate', informationUri: 'https://mesh.dev/docs/standard'}
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: tool.name,
            informationUri: tool.informationUri,
            ...(options.toolVersion ? {version: options.toolVersion} : {}),
            rules: rules.map((rule) => ({
              id: rule.id,
              name: rule.id.replace(/(^|-)([a-z0-9])/g, (_, __, letter: string) => letter.toUpperCase()),
              shortDescription: {text: rule.summary},
              fullDescription: {text: `${rule.summary} (${rule.source})`},
              help: {text: rule.fix},
              defaultConfiguration: {level: LEVEL[rule.severity]},
            })),
          },
        },
        results: report.findings.map((finding) => ({
          ruleId: finding.rule,
          ...(ruleIndex.has(finding.rule) ? {ruleIndex: ruleIndex.get(finding.rule)} : {}),
          level: LEVEL[finding.severity],
          message: {text: finding.file.startsWith('commit:') ? `${finding.file}: ${finding.message}` : finding.message},
          ...(finding.file.startsWith('commit:')
            ? {}
            : {
                locations: [
                  {
                    physicalLocation: {
                      artifactLocation: options.artifactUri ? {uri: options.artifactUri} : {uri: pathToUri((options.pathPrefix ?? '') + finding.file), uriBaseId: '%SRCROOT%'},
                      region: {startLine: finding.line, startColumn: finding.column},
                    },
                  },
                ],
              }),
        })),
      },
    ],
  }
}
