/** Types of heavy-modules.mjs, for the vitest test that imports it. */
export declare const ROOT: string
export declare const HEAVY_PACKAGES: string[]
export interface LoadRecord {
  status: number | null
  stdout: string
  stderr: string
  recorded: number
  packages: string[]
  heavy: string[]
}
export declare function packagesIn(lines: string[]): Set<string>
export declare function heavyModulesLoadedBy(args: string[]): LoadRecord
export declare function recordLoads(nodeArgs: string[]): LoadRecord
