import type { Row } from '../../runtime/contract/table-definition.js'
import type { ManifestAccessRule } from '../manifest/manifest.js'
import type { ApiModel, ResourceModel, VersionModel } from '../model/api-model.js'
import { listMigrationSteps } from '../model/list-migration-steps.js'
import { olderNameOf } from '../versions/apply-changes-backwards.js'
import type { VersionChange } from '../versions/version-change.js'
import { buildSampleRow } from './build-sample-row.js'
import { buildTranslateView } from './build-translate-view.js'
import type { HeaderView, MigrationGuideView } from './template-views.js'

/**
 * What the migration guide from `older` to `newer` (the next version) says:
 * the changes `newer` declares with their `why`, every name a client of
 * `older` must change (listMigrationSteps), and, for each changed resource
 * both versions serve, one stored row as each version's record.
 */
export function buildMigrationGuideView(
  header: HeaderView,
  model: ApiModel,
  older: VersionModel,
  newer: VersionModel,
): MigrationGuideView {
  const changed = [...new Set(newer.changes.flatMap(changedResource))]
  const samples = changed.flatMap((name) => {
    const sample = sampleRecords(model, older, newer, name)
    return sample
      ? [{ resource: name, olderRecord: showRecord(sample.older), newerRecord: showRecord(sample.newer) }]
      : []
  })
  return {
    ...header,
    older: older.name,
    newer: newer.name,
    deprecation: older.deprecation && { deprecated: older.deprecation.deprecated, sunset: older.deprecation.sunset },
    changes: newer.changes.map((change) => ({ summary: summarize(change, older, newer), why: change.why })),
    steps: listMigrationSteps(older, newer),
    samples,
    unsampled: changed.filter((name) => !samples.some((sample) => sample.resource === name)),
  }
}

function showRecord(record: Row): string {
  return JSON.stringify({ data: record }, null, 2)
}

/** The resource a change concerns, as the newer version names it; none for a removed resource. */
function changedResource(change: VersionChange): string[] {
  switch (change.kind) {
    case 'rename_resource':
      return [change.to]
    case 'remove_resource':
    case 'add_resource':
    case 'add_aggregate':
    case 'add_soft_delete':
    case 'change_access':
      // Gone from one version, or stored the same: no record to show in both versions' shapes.
      return []
    default:
      return [change.resource]
  }
}

/**
 * One stored row of `resource` (as `newer` names it) as each version's
 * record, each through the field mapping its translate module is rendered
 * from (buildTranslateView): the newest version's too, since the storage may
 * keep columns only older versions use.
 * Null when a version is not served over the storage, so has no translation.
 */
export function sampleRecords(
  model: ApiModel,
  older: VersionModel,
  newer: VersionModel,
  resource: string,
): { readonly row: Row; readonly older: Row; readonly newer: Row } | null {
  const stored = newer.storage?.get(resource)?.storage
  if (!stored) return null
  const row = buildSampleRow(stored)
  const olderRecord = recordOf(model, older, stored, row)
  const newerRecord = recordOf(model, newer, stored, row)
  return olderRecord && newerRecord && { row, older: olderRecord, newer: newerRecord }
}

/** `row` of the storage's `stored` resource as `version` shows it, through the mapping its translate module is rendered from. */
function recordOf(model: ApiModel, version: VersionModel, stored: ResourceModel, row: Row): Row | null {
  const mappings = version.storage
  const name = [...(mappings ?? [])].find(([, mapping]) => mapping.storage.name === stored.name)?.[0]
  const resource = version.resources.find((candidate) => candidate.name === name)
  if (!mappings || !resource) return null
  // Only the field → column pairs are read, never rendered: the header and schema.ts's tables do not matter.
  const view = buildTranslateView(
    { notice: '' },
    { ...model, resources: version.resources },
    version,
    resource,
    mappings,
    new Map(),
  )
  return Object.fromEntries(view.record.map(({ field, column }) => [field, row[column] ?? null]))
}

/** `public`, `authenticated or posts:write`: an access rule as `access:` writes it. */
function describeAccessRule(rule: ManifestAccessRule): string {
  return (Array.isArray(rule) ? rule : [rule])
    .map((alternative) => (typeof alternative === 'string' ? alternative : alternative.scopes.join(' and ')))
    .join(' or ')
}

/** One line saying what a change did, in each version's names. */
function summarize(change: VersionChange, older: VersionModel, newer: VersionModel): string {
  const olderName = (name: string) => (older.toNewer ? olderNameOf(older.toNewer, name) : name)
  switch (change.kind) {
    case 'rename_field':
      return `${olderName(change.resource)}.${change.from} is ${change.resource}.${change.to} in ${newer.name}`
    case 'remove_field':
      return `${olderName(change.resource)}.${change.field} is removed in ${newer.name}`
    case 'add_field': {
      const value =
        change.olderValue === null
          ? ''
          : `; records created through ${older.name} get ${JSON.stringify(change.olderValue)}`
      const field = newer.resources
        .find((resource) => resource.name === change.resource)
        ?.fields.find(({ name }) => name === change.field)
      // Optional only when the older version is frozen, which leaves the field out of it.
      const required = field?.required === true ? ', where it is required' : ''
      return `${change.resource}.${change.field} is new in ${newer.name}${required}${value}`
    }
    case 'rename_resource':
      return `${change.from} is ${change.to} in ${newer.name}, and so are the keys, relations and include paths named after it`
    case 'reroot_resource':
      return `${olderName(change.resource)} is no longer nested under ${change.fromParent} in ${newer.name}: it is served at the top level only`
    case 'remove_resource':
      return `${change.resource} is removed in ${newer.name}`
    case 'add_resource':
      return `${change.resource} is new in ${newer.name}`
    case 'add_aggregate':
      return `${change.resource} has aggregates (\`GET …/${change.resource}/aggregates\`) in ${newer.name}`
    case 'add_soft_delete':
      return `${change.resource} are soft-deleted in ${newer.name}: \`deleted_at\`, \`?deleted=\` and restorations (a DELETE through ${older.name} soft-deletes too)`
    case 'change_access': {
      const operation = change.operation === 'all' ? 'every operation' : change.operation
      return `${change.resource}: ${operation} takes other credentials in ${newer.name} than in ${older.name}, where it was ${describeAccessRule(change.was)}`
    }
  }
}
