/**
 * Reads a Prometheus text exposition with a real parser
 * (parse-prometheus-text-format, a port of the Python client's parser), so
 * tests check what a Prometheus server would read, not what a regex finds.
 * It reads counters and gauges with their labels; a histogram with labels
 * comes back folded into one sample without them (the parser's limit).
 */
// @ts-expect-error: the package ships no types; its output shape is declared below (prom2json's).
import parsePrometheusTextFormat from 'parse-prometheus-text-format'

export interface MetricFamily {
  name: string
  help: string
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'
  metrics: Array<{labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string; sum?: string}>
}

/** The families of an exposition, by name. */
export function parseMetrics(text: string): Map<string, MetricFamily> {
  const families = (parsePrometheusTextFormat as (text: string) => MetricFamily[])(text)
  return new Map(families.map((family) => [family.name, family]))
}

/** The value of the sample of `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(families: Map<string, MetricFamily>, name: string, labels: Record<string, string> = {}): number | undefined {
  const sample = families.get(name)?.metrics.find((metric) => Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value))
  if (!sample) return undefined
  return Number(sample.value ?? sample.count)
}

/** The metric names listed in the first column of a markdown table of `doc` (rows starting with "| `mesh_"), with their row. */
export function documentedMetrics(doc: string, heading: string): Array<{name: string; row: string}> {
  const start = doc.indexOf(heading)
  if (start < 0) throw new Error(`no heading ${heading}`)
  const section = doc.slice(start + heading.length)
  const end = section.search(/\n#{2,3} /)
  return (end < 0 ? section : section.slice(0, end))
    .split('\n')
    .flatMap((row) => {
      const name = /^\| `(mesh_[a-z_]+)` \|/.exec(row)?.[1]
      return name ? [{name, row}] : []
    })
}
