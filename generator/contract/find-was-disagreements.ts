import type { Diagnostic } from '../diagnostics/diagnostic.js'
import type { LoadedManifest } from '../manifest/load-manifest.js'
import { findKeyRange, type ManifestPath } from '../manifest/source-ranges.js'
import type { ApiModel, VersionModel } from '../model/api-model.js'
import { olderNameOf } from '../versions/apply-changes-backwards.js'
import type { VersionChange } from '../versions/version-change.js'
import { nameResourceComponents } from '../names/generated-names.js'

/** The OpenAPI documents a version is compared in: as published (null when it is not) and as generated now. */
export interface VersionDocuments {
  published(version: string): { readonly label: string; readonly document: unknown } | null
  generated(version: string): unknown
}

/**
 * A removed field's or resource's `was` describes the older version, which is
 * served from it: when that version is published, `was` must describe what the
 * published document says (record and create body), or the older version would
 * change under its consumers. One VERSION_WAS_PUBLISHED error per change that
 * disagrees, at its `was`, quoting the published schema.
 */
export function findWasDisagreements(
  loaded: LoadedManifest,
  model: ApiModel,
  documents: VersionDocuments,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = []
  model.versions.forEach((newer, index) => {
    const older = model.versions[index - 1]
    const published = older && documents.published(older.name)
    if (!older || !published) return
    const now = documents.generated(older.name)
    newer.changes.forEach((change, changeIndex) => {
      const removed = removedFields(change, newer, older)
      if (removed === null) return
      const publishedSchemas = componentsOf(published.document, removed.typeName)
      const currentSchemas = componentsOf(now, removed.typeName)
      const fields = removed.field === null ? unionOfFields(publishedSchemas, currentSchemas) : [removed.field]
      const disagreements = fields.filter(
        (field) => describeField(publishedSchemas, field) !== describeField(currentSchemas, field),
      )
      if (disagreements.length === 0) return
      const path: ManifestPath = ['versions', newer.name, 'changes', changeIndex, change.kind, 'was']
      const range = findKeyRange(loaded.document, path)
      const says = disagreements.map((field) => `${field}: ${describeField(publishedSchemas, field)}`).join('; ')
      diagnostics.push({
        code: 'VERSION_WAS_PUBLISHED',
        severity: 'error',
        message:
          `${change.kind} ${removed.resource}${removed.field === null ? '' : `.${removed.field}`}: \`was\` disagrees with ` +
          `${published.label}, which says ${says}; make \`was\` describe ${older.name} as published`,
        file: loaded.file,
        ...range,
      })
    })
  })
  return diagnostics
}

/** What a `was` describes: a field (null: every field) of a resource as the older version names it. */
function removedFields(
  change: VersionChange,
  newer: VersionModel,
  older: VersionModel,
): { resource: string; field: string | null; typeName: string } | null {
  if (change.kind !== 'remove_field' && change.kind !== 'remove_resource') return null
  // A removed field's resource is named as the newer version names it; a removed resource as the older one does.
  const name =
    change.kind === 'remove_field' && older.toNewer ? olderNameOf(older.toNewer, change.resource) : change.resource
  const resource = older.resources.find((candidate) => candidate.name === name)
  if (!resource) return null
  return { resource: name, field: change.kind === 'remove_field' ? change.field : null, typeName: resource.typeName }
}

interface ResourceSchemas {
  readonly record: SchemaObject | undefined
  readonly create: SchemaObject | undefined
}

interface SchemaObject {
  readonly properties?: Record<string, unknown>
  readonly required?: readonly string[]
}

interface Components {
  readonly schemas?: Record<string, SchemaObject>
  readonly requestBodies?: Record<string, { content?: Record<string, { schema?: SchemaObject }> }>
}

function componentsOf(document: unknown, typeName: string): ResourceSchemas {
  const components = (document as { components?: Components }).components
  const names = nameResourceComponents(typeName)
  // Documents generated before create bodies became request bodies (openapi-components.ts) have them as schemas.
  const create =
    components?.requestBodies?.[names.create]?.content?.['application/json']?.schema ??
    components?.schemas?.[names.create]
  return { record: components?.schemas?.[names.record], create }
}

function unionOfFields(...schemas: ResourceSchemas[]): string[] {
  return [...new Set(schemas.flatMap(({ record }) => Object.keys(record?.properties ?? {})))]
}

/** A field as a document has it: its record schema, and whether create bodies require it. */
function describeField({ record, create }: ResourceSchemas, field: string): string {
  const schema = record?.properties?.[field]
  if (schema === undefined) return 'absent'
  const required = create?.required?.includes(field) ? ', required in create bodies' : ''
  return `${JSON.stringify(schema)}${required}`
}
