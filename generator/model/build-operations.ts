import type { AccessRule } from '../../runtime/contract/access-rule.js'
import { operationHandlerKey } from '../../runtime/contract/operation-route.js'
import type { Manifest, ManifestAccessAlternative, ManifestField, ManifestResource } from '../manifest/manifest.js'
import { deriveResourceNames, pascalCase } from '../names/derive-names.js'
import type { FieldModel, OperationModel } from './api-model.js'
import { normalizeAlternative } from './build-access.js'
import { buildField } from './build-field.js'
import { buildRatePolicy } from './build-http.js'

/**
 * The custom operations a version serves: those of its resources (on one
 * record, `/<resource>/{<singular>_id}/<operation>`), then those of the
 * manifest's `collection_only` resources (`/<resource>/<operation>`), which
 * every version serves alike. Handlers are written against the newest
 * version; a record an operation answers with is translated per version.
 */
export function buildOperations(
  manifest: Manifest,
  versionResources: Readonly<Record<string, ManifestResource>>,
): OperationModel[] {
  const onRecords = Object.entries(versionResources).flatMap(([name, resource]) =>
    Object.entries(resource.operations ?? {}).map(([operation, declared]) =>
      buildOperation(
        manifest,
        name,
        resource,
        operation,
        declared,
        deriveResourceNames(name, resource.singular).idParam,
      ),
    ),
  )
  const collectionOnly = Object.entries(manifest.resources)
    .filter(([, resource]) => resource.collection_only === true)
    .flatMap(([name, resource]) =>
      Object.entries(resource.operations ?? {}).map(([operation, declared]) =>
        buildOperation(manifest, name, resource, operation, declared, null),
      ),
    )
  return [...onRecords, ...collectionOnly]
}

function buildOperation(
  manifest: Manifest,
  resourceName: string,
  resource: ManifestResource,
  name: string,
  declared: NonNullable<ManifestResource['operations']>[string],
  idParam: string | null,
): OperationModel {
  const segments = idParam === null ? [resourceName, name] : [resourceName, `{${idParam}}`, name]
  const responds =
    declared.responds === undefined
      ? null
      : typeof declared.responds === 'string'
        ? { kind: 'record' as const, resource: declared.responds }
        : { kind: 'shape' as const, fields: fieldsOf(declared.responds.fields), many: declared.responds.many ?? false }
  const handler = operationHandlerKey(resourceName, name, declared.method)
  return {
    name,
    resource: resourceName,
    handler,
    method: declared.method,
    path: `/${segments.join('/')}`,
    url: `/${segments.map((segment) => (segment.startsWith('{') ? `:${segment.slice(1, -1)}` : segment)).join('/')}`,
    idParam,
    body: declared.body === undefined ? null : fieldsOf(declared.body),
    query: fieldsOf(declared.query ?? {}),
    responds,
    status: declared.status ?? (responds === null ? 204 : declared.method === 'POST' ? 201 : 200),
    access: manifest.auth === undefined ? null : accessOf(declared.access ?? manifest.auth.default ?? 'public'),
    rate: buildRatePolicy(resourceName, resource.rate),
    typeName: pascalCase(handler.replaceAll('.', '-')),
  }
}

function fieldsOf(fields: Readonly<Record<string, ManifestField>>): FieldModel[] {
  return Object.entries(fields).map(([name, field]) => buildField(name, field))
}

function accessOf(rule: ManifestAccessAlternative | ManifestAccessAlternative[]): AccessRule[] {
  return (Array.isArray(rule) ? rule : [rule]).map(normalizeAlternative)
}
