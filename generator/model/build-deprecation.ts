import { listNewerVersions } from '../manifest/order-versions.js'
import type { ManifestVersion } from '../manifest/manifest.js'
import { migrationGuideName } from '../names/generated-names.js'
import type { DeprecationModel } from './api-model.js'

/**
 * A version's deprecation, or null when it is current. Assumes validation
 * passed: a deprecated version has a newer one (VERSION_DEPRECATED_WITHOUT_SUCCESSOR).
 * The successor is the next major, deprecated or not, so the default guide
 * covers one step (`/docs/migrate-v1-to-v2`) and a client walks the chain.
 */
export function buildDeprecation(
  name: string,
  versions: Readonly<Record<string, ManifestVersion>>,
): DeprecationModel | null {
  const { deprecated, sunset, guide } = versions[name]!
  if (deprecated === undefined) return null
  const successor = listNewerVersions(name, Object.keys(versions))[0]
  if (successor === undefined) throw new Error(`internal error: deprecated version "${name}" has no newer version`)
  return {
    deprecated,
    sunset: sunset ?? null,
    guide: guide ?? `/docs/${migrationGuideName(name, successor)}`,
    successorPrefix: `/${successor}`,
  }
}
