import type { Diagnostic } from '../diagnostics/diagnostic.js'
import { hasErrors } from '../diagnostics/diagnostic.js'
import type { LoadedManifest } from '../manifest/load-manifest.js'
import type { Manifest } from '../manifest/manifest.js'
import { checkFieldNames } from './check-field-names.js'
import { checkFieldOptions } from './check-field-options.js'
import { checkFilters } from './check-filters.js'
import { checkGeneratedNames } from './check-generated-names.js'
import { checkHasMany } from './check-has-many.js'
import { checkIncludes } from './check-includes.js'
import { checkLimits } from './check-limits.js'
import { checkParents } from './check-parents.js'
import { checkReferenceCycles } from './check-reference-cycles.js'
import { checkRelations } from './check-relations.js'
import { checkRenames } from './check-renames.js'
import { checkResourceNames } from './check-resource-names.js'
import { checkSchema } from './check-schema.js'
import { checkSort } from './check-sort.js'
import { createCheckContext } from './check-context.js'
import { checkVersions } from './check-versions.js'
import { checkDeprecation } from './check-deprecation.js'

/**
 * Runs every check on a loaded manifest and returns all problems, the loader's
 * included, sorted by position; never stops at the first. The schema and the
 * semantic checks all run on the same data, each skipping what it cannot
 * judge, so one mistake is reported once. When the YAML itself is broken only
 * the syntax errors are reported: checking a half-parsed document would
 * report noise. `manifest` is non-null only when there are no errors.
 */
export function validateManifest(loaded: LoadedManifest): { manifest: Manifest | null; diagnostics: Diagnostic[] } {
  const { context, diagnostics } = createCheckContext(loaded)
  const syntaxBroken = loaded.diagnostics.some(
    (diagnostic) => diagnostic.code === 'YAML_SYNTAX' && diagnostic.severity === 'error',
  )
  if (!syntaxBroken) {
    for (const check of [
      checkSchema,
      checkVersions,
      checkDeprecation,
      checkLimits,
      checkResourceNames,
      checkGeneratedNames,
      checkParents,
      checkFieldNames,
      checkFieldOptions,
      checkRelations,
      checkHasMany,
      checkReferenceCycles,
      checkIncludes,
      checkSort,
      checkFilters,
      checkRenames,
    ]) {
      check(context, loaded.data)
    }
  }
  const all = [...loaded.diagnostics, ...diagnostics].sort((a, b) => a.start - b.start || a.end - b.end)
  return { manifest: hasErrors(all) ? null : (loaded.data as Manifest), diagnostics: all }
}
