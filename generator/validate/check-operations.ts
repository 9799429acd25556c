import { asRecord } from '../manifest/as-record.js'
import { didYouMean } from '../diagnostics/did-you-mean.js'
import type { CheckContext } from './check-context.js'
import { findResourceNameProblem } from './find-resource-name-problem.js'

/** Keys a `collection_only` resource cannot have: it has no table, so nothing to store, relate, list or own. */
const STORAGE_KEYS = [
  'fields',
  'relations',
  'parent',
  'on_delete',
  'include',
  'sort',
  'filter',
  'cache',
  'concurrency',
  'owner',
  'access',
  'renamed_from',
  'singular',
] as const

const BODILESS_METHODS: readonly unknown[] = ['GET', 'DELETE']

/**
 * Custom operations (`operations:`) and `collection_only` resources: an
 * operation's name is a path segment under the same naming rules as a
 * resource (UNSAFE_NAME, NAMING_LOWERCASE, NAMING_HYPHENS, NAMING_NO_VERBS,
 * NAMING_PLURAL, at its key); its path must not be a child resource's nested
 * route (OPERATION_PATH_CLASH); GET and DELETE take no body
 * (OPERATION_BODY_METHOD); `responds` names a resource with records
 * (OPERATION_RESPONDS_UNKNOWN) and 204 has no body (OPERATION_STATUS); a
 * `collection_only` resource declares operations and nothing stored
 * (COLLECTION_ONLY), and nothing refers to it as if it had records
 * (COLLECTION_ONLY); operations need `app:` (OPERATIONS_WITHOUT_APP),
 * whose handlers `check` compares (check-app-module.ts). Access rules of operations are checked with the
 * resources' (check-auth.ts).
 */
export function checkOperations(context: CheckContext, data: unknown): void {
  const resources = asRecord(asRecord(data)?.resources) ?? {}
  // Reported once, at the first operation: every other one needs the same fix.
  let needsApp = asRecord(data)?.app === undefined
  const stored = Object.keys(resources).filter((name) => asRecord(resources[name])?.collection_only !== true)
  for (const [resourceName, value] of Object.entries(resources)) {
    const resource = asRecord(value)
    if (resource === null) continue
    const path = ['resources', resourceName]
    const collectionOnly = resource.collection_only === true
    if (collectionOnly) checkCollectionOnly(context, resourceName, resource)
    else checkReferences(context, resourceName, resource, resources)
    const children = Object.entries(resources)
      .filter(([, child]) => asRecord(child)?.parent === resourceName)
      .map(([child]) => child)
    for (const [operationName, operationValue] of Object.entries(asRecord(resource.operations) ?? {})) {
      const at = [...path, 'operations', operationName]
      const problem = findResourceNameProblem(operationName, false)
      if (problem !== null) {
        context.report(problem.code, problem.message.replace(/^collection /, 'operation '), context.atKey(at))
      } else if (!collectionOnly && children.includes(operationName)) {
        context.report(
          'OPERATION_PATH_CLASH',
          `operation "${operationName}" of resource "${resourceName}" has the path of the nested resource "${operationName}" (/${resourceName}/{id}/${operationName}); rename the operation`,
          context.atKey(at),
        )
      }
      if (needsApp) {
        needsApp = false
        context.report(
          'OPERATIONS_WITHOUT_APP',
          `operation "${operationName}" of resource "${resourceName}" (and any other operation) needs a handler, but the manifest has no \`app:\` module to export it from; ` +
            'add `app: ./src/app.ts` (the module default-exporting defineApp({...})), or remove the operations',
          context.atKey(at),
        )
      }
      const operation = asRecord(operationValue)
      if (operation === null) continue
      if (operation.body !== undefined && BODILESS_METHODS.includes(operation.method)) {
        context.report(
          'OPERATION_BODY_METHOD',
          `operation "${operationName}" of resource "${resourceName}" is a ${String(operation.method)}, which takes no body; move its fields to query:, or use POST`,
          context.atKey([...at, 'body']),
        )
      }
      const responds = operation.responds
      if (typeof responds === 'string' && !stored.includes(responds)) {
        const guess = didYouMean(responds, stored)
        const kind = resources[responds] === undefined ? 'is not a resource' : 'is collection_only, so has no records'
        context.report(
          'OPERATION_RESPONDS_UNKNOWN',
          `operation "${operationName}" of resource "${resourceName}" responds with "${responds}", which ${kind}; ${guess ? `did you mean "${guess}"?` : 'name a resource of the manifest, or give { fields: {...} }'}`,
          context.atValue([...at, 'responds']),
        )
      }
      if (operation.status === 204 && responds !== undefined) {
        context.report(
          'OPERATION_STATUS',
          `operation "${operationName}" of resource "${resourceName}" answers 204, which has no body, but declares responds:; use 200 or 201, or remove responds:`,
          context.atValue([...at, 'status']),
        )
      }
      if (operation.status !== undefined && operation.status !== 204 && responds === undefined) {
        context.report(
          'OPERATION_STATUS',
          `operation "${operationName}" of resource "${resourceName}" answers ${String(operation.status)} but declares no responds:, so it has no body to send; declare responds:, or use 204`,
          context.atValue([...at, 'status']),
        )
      }
    }
  }
}

function checkCollectionOnly(
  context: CheckContext,
  resourceName: string,
  resource: Readonly<Record<string, unknown>>,
): void {
  const path = ['resources', resourceName]
  for (const key of STORAGE_KEYS) {
    if (resource[key] === undefined) continue
    context.report(
      'COLLECTION_ONLY',
      `resource "${resourceName}" is collection_only: it has no table, so ${key}: means nothing; remove it, or remove collection_only`,
      context.atKey([...path, key]),
    )
  }
  if (Object.keys(asRecord(resource.operations) ?? {}).length === 0) {
    context.report(
      'COLLECTION_ONLY',
      `resource "${resourceName}" is collection_only but declares no operations, so it serves nothing; add operations:, or remove the resource`,
      context.atKey([...path, 'collection_only']),
    )
  }
}

/** A parent or relation naming a collection_only resource: it has no records to point at. */
function checkReferences(
  context: CheckContext,
  resourceName: string,
  resource: Readonly<Record<string, unknown>>,
  resources: Readonly<Record<string, unknown>>,
): void {
  const isCollectionOnly = (name: unknown): boolean =>
    typeof name === 'string' && asRecord(resources[name])?.collection_only === true
  const path = ['resources', resourceName]
  if (isCollectionOnly(resource.parent)) {
    context.report(
      'COLLECTION_ONLY',
      `resource "${resourceName}" has parent "${String(resource.parent)}", which is collection_only and has no records to nest under; choose another parent`,
      context.atValue([...path, 'parent']),
    )
  }
  for (const [relationName, relation] of Object.entries(asRecord(resource.relations) ?? {})) {
    const target = asRecord(relation)?.resource
    if (!isCollectionOnly(target)) continue
    context.report(
      'COLLECTION_ONLY',
      `relation "${relationName}" of resource "${resourceName}" points at "${String(target)}", which is collection_only and has no records; point it at a resource with fields`,
      context.atValue([...path, 'relations', relationName, 'resource']),
    )
  }
}
