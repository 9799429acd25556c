import type { ManifestPath } from '../manifest/source-ranges.js'
import type { RuleId } from '../validate/rules.js'

/**
 * Why a migration cannot be planned as asked (an error), or what the person
 * creating it should know (a warning). Located in the manifest by `path`: the
 * CLI turns it into a Diagnostic at that key.
 */
export interface MigrationProblem {
  readonly code: RuleId
  readonly severity: 'error' | 'warning'
  readonly message: string
  readonly path: ManifestPath
}
