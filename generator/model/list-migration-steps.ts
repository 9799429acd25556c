import type { FieldModel, ResourceModel, VersionModel } from './api-model.js'
import { NameTrace } from './name-trace.js'

/** What a client of the older version changes: one name it uses, and what the newer version calls it. */
export interface MigrationStep {
  readonly kind: 'endpoint' | 'field' | 'query parameter' | 'include path'
  /** As the older version has it (`/v1/posts/{post_id}/comments`, `posts.body`); null for what only the newer has. */
  readonly older: string | null
  /** As the newer version has it; null for what it no longer has. */
  readonly newer: string | null
}

/**
 * Every endpoint, field, query parameter and include path of `older` that
 * `newer` names differently or no longer has, and every field only `newer`
 * has, traced through the changes `newer` declares: resource renames and
 * removals, field renames, removals and additions, the keys and relations
 * named after a renamed resource, and re-rooted routes. What keeps its name
 * is left out.
 */
export function listMigrationSteps(older: VersionModel, newer: VersionModel): MigrationStep[] {
  const trace = new NameTrace(older, newer)
  const steps: MigrationStep[] = []
  for (const resource of older.resources) {
    const renamed = trace.resource(resource.name)
    for (const route of resource.routes) {
      const path = renamed && trace.route(resource, renamed, route)
      if (path !== route.path) steps.push(step('endpoint', older.prefix + route.path, path && newer.prefix + path))
    }
    if (!renamed) continue
    const list = { older: older.prefix + collectionPath(resource), newer: newer.prefix + collectionPath(renamed) }
    const reached = new Set<string>()
    for (const field of resource.fields) {
      const name = trace.field(resource, field.name)
      if (name !== null) reached.add(name)
      if (name === field.name) continue
      steps.push(step('field', `${resource.name}.${field.name}`, name && `${renamed.name}.${name}`))
      steps.push(...listParameterSteps(resource, field, name, list))
    }
    for (const field of renamed.fields) {
      if (!reached.has(field.name)) steps.push(step('field', null, `${renamed.name}.${field.name}`))
    }
    for (const path of resource.includes) {
      const traced = trace.includePath(resource, path)
      if (traced !== path)
        steps.push(step('include path', `${list.older}?include=${path}`, traced && `${list.newer}?include=${traced}`))
    }
  }
  return steps
}

/** The top-level collection path, which every resource has. */
function collectionPath(resource: ResourceModel): string {
  return resource.routes.find((route) => route.kind === 'collection' && route.nestedUnder === null)!.path
}

function step(kind: MigrationStep['kind'], older: string | null, newer: string | null): MigrationStep {
  return { kind, older, newer }
}

/**
 * The query parameters older `resource` takes on `field`, which the newer
 * version calls `name` (null: gone), on its collection path in each version
 * (`list`). Operators are left out: a rename keeps them.
 */
function listParameterSteps(
  resource: ResourceModel,
  field: FieldModel,
  name: string | null,
  list: { readonly older: string; readonly newer: string },
): MigrationStep[] {
  const parameters: [string, string][] = []
  const operators = resource.filters.find((filter) => filter.field === field.name)?.operators ?? []
  if (operators.includes('eq')) parameters.push([`${field.name}=`, `${name}=`])
  if (operators.length > 0) parameters.push([`filter[${field.name}][…]=`, `filter[${name}][…]=`])
  if (resource.sortable.includes(field.name)) parameters.push([`sort=${field.name}`, `sort=${name}`])
  return parameters.map(([before, after]) =>
    step('query parameter', `${list.older}?${before}`, name && `${list.newer}?${after}`),
  )
}
