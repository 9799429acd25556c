import type { Diagnostic } from '../diagnostics/diagnostic.js'
import type { LoadedManifest } from '../manifest/load-manifest.js'
import type { Manifest, ManifestResource } from '../manifest/manifest.js'
import type { ManifestPath } from '../manifest/source-ranges.js'
import { findParentLink, olderNameOf } from '../versions/apply-changes-backwards.js'
import type { StorageCollision } from '../versions/build-storage.js'
import type { DerivedVersions, VersionResources } from '../versions/derive-versions.js'
import type { VersionChange } from '../versions/version-change.js'
import { createCheckContext, type CheckContext } from './check-context.js'
import { quoteValue, hintUnknownName } from './describe-value.js'
import { explainValueMismatch } from './explain-value-mismatch.js'
import { foreignKeyOf, withoutIdSuffix } from '../names/derive-names.js'
import { narrowsAccess } from './narrows-access.js'
import { RESOURCE_CHECKS } from './resource-checks.js'

type Resources = Readonly<Record<string, ManifestResource>>

/**
 * Checks each version's changes against the resources they apply to, newest
 * first: what a change names must exist in the newer version (or not, for what
 * it removes or renames away) (VERSION_CHANGE_TARGET), with a fitting
 * `older_value` (VERSION_CHANGE_OLDER_VALUE); then the older version derived
 * from them must pass every resource rule itself, each problem reported at the
 * change that produced it. Stops at the first version with problems: older
 * versions derived from it would only repeat them. Needs a valid manifest.
 */
export function checkDerivedVersions(
  loaded: LoadedManifest,
  manifest: Manifest,
  { versions, collisions }: DerivedVersions,
): Diagnostic[] {
  const { context, diagnostics } = createCheckContext(loaded)
  for (let index = versions.length - 1; index > 0; index--) {
    const newer = versions[index]!
    const older = versions[index - 1]!
    newer.changes.forEach((change, at) => {
      const path = ['versions', newer.name, 'changes', at, change.kind]
      const reported = diagnostics.length
      checkTarget(context, { newer, older, change, path })
      if (diagnostics.length === reported) checkBreaks(context, manifest, { newer, older, change, path })
    })
    if (diagnostics.length === 0) {
      const derived = { ...manifest, resources: older.resources as Record<string, ManifestResource> }
      for (const check of RESOURCE_CHECKS) check(deriveContext(context, older, newer.changes), derived)
    }
    if (diagnostics.length > 0) break
  }
  if (diagnostics.length === 0) checkRemovedNamesStayFree(context, versions, collisions)
  return diagnostics
}

/**
 * A field or resource an older version still serves after a newer one removed
 * it keeps its column or table, so no newer version may use its name again.
 */
function checkRemovedNamesStayFree(
  context: CheckContext,
  versions: readonly VersionResources[],
  collisions: readonly StorageCollision[],
): void {
  for (const { version, change: index, table } of collisions) {
    const change = versions.find((candidate) => candidate.name === version)!.changes[index]!
    const key = change.kind === 'remove_field' ? 'field' : 'resource'
    const what = change.kind === 'remove_field' ? `field "${change.field}" of "${table}"` : `resource "${table}"`
    const older = versions[versions.findIndex((candidate) => candidate.name === version) - 1]!.name
    context.report(
      'VERSION_CHANGE_TARGET',
      `${version} removes ${what}, yet a newer version has a ${key} of that name again: ${older} still serves the removed one, whose data keeps that name in the database; give the newer ${key} another name, or remove ${older} from versions: once its sunset has passed`,
      context.atValue(['versions', version, 'changes', index, change.kind, key]),
    )
  }
}

interface ChangeAt {
  readonly newer: VersionResources
  readonly older: VersionResources
  readonly change: VersionChange
  /** Where the change's map is: `versions.v2.changes[0].rename_field`. */
  readonly path: ManifestPath
}

function checkTarget(context: CheckContext, at: ChangeAt): void {
  const { newer, change, path } = at
  const resources = newer.resources
  const report = (key: string, message: string) =>
    context.report('VERSION_CHANGE_TARGET', message, context.atValue([...path, key]))
  if ('resource' in change && change.kind !== 'remove_resource' && !resources[change.resource]) {
    report(
      'resource',
      `${change.kind} names resource "${change.resource}", which ${newer.name} does not have${hintUnknownName(change.resource, Object.keys(resources), `${newer.name}'s resources`)}`,
    )
    return
  }
  const fields = 'resource' in change ? Object.keys(resources[change.resource]?.fields ?? {}) : []
  const fieldsOf = (resource: string) => `${newer.name}'s fields of "${resource}"`
  switch (change.kind) {
    case 'rename_field':
      if (!fields.includes(change.to))
        report(
          'to',
          `rename_field names field "${change.to}" of "${change.resource}", which ${newer.name} does not have: "to" is the field's name in ${newer.name}${hintUnknownName(change.to, fields, fieldsOf(change.resource))}`,
        )
      if (fields.includes(change.from))
        report(
          'from',
          `"${change.resource}" still has field "${change.from}" in ${newer.name}: "from" is the name ${at.older.name} used, which ${newer.name} no longer has; rename the field in resources:, or remove this change`,
        )
      return
    case 'remove_field':
      if (fields.includes(change.field))
        report(
          'field',
          `"${change.resource}" still has field "${change.field}" in ${newer.name}; remove it from resources:, or remove this change`,
        )
      return
    case 'add_field':
      if (!fields.includes(change.field)) {
        report(
          'field',
          `add_field names field "${change.field}" of "${change.resource}", which ${newer.name} does not have; add it to resources:${hintUnknownName(change.field, fields, fieldsOf(change.resource))}`,
        )
        return
      }
      checkOlderValue(context, at, change)
      return
    case 'rename_resource':
      if (!resources[change.to])
        report(
          'to',
          `rename_resource names resource "${change.to}", which ${newer.name} does not have: "to" is its name in ${newer.name}${hintUnknownName(change.to, Object.keys(resources), `${newer.name}'s resources`)}`,
        )
      if (resources[change.from])
        report(
          'from',
          `${newer.name} still has resource "${change.from}": "from" is the name ${at.older.name} used, which ${newer.name} no longer has; rename the resource in resources:, or remove this change`,
        )
      return
    case 'reroot_resource':
      if (!at.older.resources[change.fromParent])
        report(
          'from_parent',
          `reroot_resource names parent "${change.fromParent}", which ${at.older.name} does not have: from_parent is a resource of ${at.older.name}, named as ${at.older.name} named it${hintUnknownName(change.fromParent, Object.keys(at.older.resources), `${at.older.name}'s resources`)}`,
        )
      else if (resources[change.resource]?.parent === change.fromParent)
        report(
          'from_parent',
          `"${change.resource}" is still nested under "${change.fromParent}" in ${newer.name}: re-rooting moves it from that parent; remove this change, or its parent in resources:`,
        )
      else checkRerootKeepsParentKey(at, change, report)
      return
    case 'remove_resource':
      if (resources[change.resource])
        report(
          'resource',
          `${newer.name} still has resource "${change.resource}"; remove it from resources:, or remove this change`,
        )
      return
    case 'add_aggregate':
      if (resources[change.resource]!.aggregate === undefined)
        report(
          'resource',
          `"${change.resource}" has no aggregate: in ${newer.name}; add one to the resource, or remove this change`,
        )
      return
    case 'add_soft_delete':
      if (resources[change.resource]!.soft_delete !== true)
        report(
          'resource',
          `"${change.resource}" is not soft_delete: true in ${newer.name}; set it on the resource, or remove this change`,
        )
      return
    case 'add_resource':
    case 'change_access':
      // The resource exists (above); whether the change breaks anything is checkBreaks's.
      return
  }
}

/**
 * VERSION_CHANGE_NOT_BREAKING as far as the manifest alone tells, the rule
 * `restmint check` applies to the generated documents: an optional field
 * added, a resource added (both fine when the older version is frozen: it
 * leaves them out), or access that lets in no fewer callers, is no breaking
 * change. Reported at the `changes` entry, where check reports it.
 */
function checkBreaks(context: CheckContext, manifest: Manifest, at: ChangeAt): void {
  const { newer, older, change } = at
  const entry = at.path.slice(0, -1)
  const report = (what: string, fix: string) =>
    context.report(
      'VERSION_CHANGE_NOT_BREAKING',
      `${what}, so it is not a breaking difference between ${older.name} and ${newer.name}; ${fix}`,
      context.atKey(entry),
    )
  const notFrozen = `remove the entry, or freeze ${older.name} (\`frozen: true\`) to keep it out of ${older.name}`
  if (change.kind === 'add_field' && !older.frozen) {
    const field = newer.resources[change.resource]!.fields![change.field]!
    if (field.required !== true || field.default !== undefined) {
      const why = field.required === true ? 'has a default' : 'is optional'
      report(
        `add_field ${change.resource}.${change.field} ${why} in ${newer.name}: an addition no client of ${older.name} notices`,
        notFrozen,
      )
    }
  } else if (
    (change.kind === 'add_resource' || change.kind === 'add_aggregate' || change.kind === 'add_soft_delete') &&
    !older.frozen
  ) {
    report(`${change.kind} ${change.resource} is an addition no client of ${older.name} notices`, notFrozen)
  } else if (change.kind === 'change_access') {
    const olderResource = older.resources[olderNameOf(older.toNewer!, change.resource)]
    const newerResource = newer.resources[change.resource]!
    if (olderResource && !narrowsAccess(manifest, olderResource, newerResource, change.operation)) {
      report(
        `change_access ${change.resource} ${change.operation}: the rule in resources: lets in every caller \`was\` let in, to the same records`,
        'remove the entry, or make the access rule in resources: stricter than `was`',
      )
    }
  }
}

/**
 * A re-rooted resource keeps its older parent key as a belongs-to of the newer
 * version: that column is what the older version's nested routes read and
 * write. Without it the older version could not be served.
 */
function checkRerootKeepsParentKey(
  at: ChangeAt,
  change: Extract<VersionChange, { kind: 'reroot_resource' }>,
  report: (key: string, message: string) => void,
): void {
  const { newer } = at
  const parent = at.older.toNewer?.get(change.fromParent)?.name ?? change.fromParent
  const parentKey = foreignKeyOf(parent, newer.resources[parent]?.singular)
  const resource = newer.resources[change.resource]
  if (resource && findParentLink(resource, parent, parentKey)) return
  report(
    'resource',
    `"${change.resource}" has no belongs-to relation to "${parent}" keyed ${parentKey} in ${newer.name}, so ${at.older.name}'s routes under "${change.fromParent}" would have no parent key to read; add \`${withoutIdSuffix(parentKey)}: { resource: ${parent}, required: true }\` to its relations (named so, its key is ${parentKey}), or remove this change`,
  )
}

/**
 * `older_value` is what rows created through the older version get: needed by
 * a field required in the newer version without a default, only by such a
 * field, and it must be a value the field accepts.
 */
function checkOlderValue(
  context: CheckContext,
  at: ChangeAt,
  change: Extract<VersionChange, { kind: 'add_field' }>,
): void {
  const field = at.newer.resources[change.resource]!.fields![change.field]!
  const where = `field "${change.field}" of "${change.resource}"`
  const report = (message: string, key: string) =>
    context.report('VERSION_CHANGE_OLDER_VALUE', message, context.atValue([...at.path, key]))
  if (change.olderValue === null) {
    if (field.required === true && field.default === undefined)
      report(
        `${where} is required in ${at.newer.name} without a default: add older_value, the value rows created through ${at.older.name} get`,
        'field',
      )
    return
  }
  if (field.required !== true) {
    report(
      `${where} is optional in ${at.newer.name}, so rows created through ${at.older.name} get its default or null; remove older_value`,
      'older_value',
    )
    return
  }
  const mismatch = explainValueMismatch(change.olderValue, { ...field }, true)
  if (mismatch !== null) report(`older_value ${quoteValue(change.olderValue)} of ${where} ${mismatch}`, 'older_value')
}

/**
 * A context for checking a derived version: every problem is reported at the
 * change that produced the part it concerns (else at the `changes` list), and
 * says which version it is about.
 */
function deriveContext(
  context: CheckContext,
  older: VersionResources,
  changes: readonly VersionChange[],
): CheckContext {
  const newer = older.derivedFrom!
  const locate = (path: ManifestPath) => {
    for (let length = path.length; length > 0; length--) {
      const index = older.origins.get(path.slice(0, length).join('/'))
      if (index !== undefined) return context.atKey(['versions', newer, 'changes', index, changes[index]!.kind])
    }
    return context.atKey(['versions', newer, 'changes'])
  }
  return {
    atKey: locate,
    atValue: locate,
    report: (code, message, range) =>
      context.report(code, `in ${older.name} (${newer}'s changes applied backwards), ${message}`, range),
  }
}
