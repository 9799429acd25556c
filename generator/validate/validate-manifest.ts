import { type Diagnostic, hasErrors } from '../diagnostics/diagnostic.js'
import type { LoadedManifest } from '../manifest/load-manifest.js'
import type { Manifest } from '../manifest/manifest.js'
import { checkHttp } from './check-http.js'
import { checkLimits } from './check-limits.js'
import { checkRateLimits } from './check-rate-limits.js'
import { checkSchema } from './check-schema.js'
import { createCheckContext } from './check-context.js'
import { checkVersions, checkVersionChanges } from './check-versions.js'
import { checkDerivedVersions } from './check-derived-versions.js'
import { deriveVersions, type DerivedVersions } from '../versions/derive-versions.js'
import { RESOURCE_CHECKS } from './resource-checks.js'
import { checkDeprecation } from './check-deprecation.js'
import { checkAccess, checkAuth } from './check-auth.js'
import { checkOperations } from './check-operations.js'
import { checkRestorationsPath } from './check-restorations-path.js'
import { checkComputedNames, checkHooksWithoutApp } from './check-app-module.js'

/**
 * Runs every check on a loaded manifest and returns all problems, the loader's
 * included, sorted by position; never stops at the first. The schema and the
 * semantic checks all run on the same data, each skipping what it cannot
 * judge, so one mistake is reported once. When the YAML itself is broken only
 * the syntax errors are reported: checking a half-parsed document would
 * report noise. `manifest` is non-null only when there are no errors.
 */
export function validateManifest(loaded: LoadedManifest): ValidatedManifest {
  const { context, diagnostics } = createCheckContext(loaded)
  let versions: DerivedVersions | null = null
  const syntaxBroken = loaded.diagnostics.some(
    (diagnostic) => diagnostic.code === 'YAML_SYNTAX' && diagnostic.severity === 'error',
  )
  if (!syntaxBroken) {
    for (const check of [
      checkSchema,
      checkVersions,
      checkVersionChanges,
      checkDeprecation,
      checkLimits,
      checkRateLimits,
      checkHttp,
      ...RESOURCE_CHECKS,
      checkOperations,
      checkRestorationsPath,
      checkAuth,
      checkAccess,
      checkHooksWithoutApp,
      checkComputedNames,
    ]) {
      check(context, loaded.data)
    }
    // Older versions are derived from a valid manifest only: a broken one would derive noise.
    if (!hasErrors([...loaded.diagnostics, ...diagnostics])) {
      versions = deriveVersions(loaded.data as Manifest)
      diagnostics.push(...checkDerivedVersions(loaded, loaded.data as Manifest, versions))
    }
  }
  const all = [...loaded.diagnostics, ...diagnostics].sort((a, b) => a.start - b.start || a.end - b.end)
  const valid = !hasErrors(all) && versions !== null
  return { manifest: valid ? (loaded.data as Manifest) : null, versions: valid ? versions : null, diagnostics: all }
}

/** A checked manifest; `manifest` and its derived `versions` are non-null only when there are no errors. */
export interface ValidatedManifest {
  readonly manifest: Manifest | null
  readonly versions: DerivedVersions | null
  readonly diagnostics: Diagnostic[]
}
