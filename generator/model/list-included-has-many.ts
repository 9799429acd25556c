import { type ApiModel, type RelationModel, type ResourceModel, findResource } from './api-model.js'

/**
 * The has-many relations the include paths of `resource` embed, at any depth,
 * each once: the arrays a response can cut (and list in `meta.truncated`).
 */
export function listIncludedHasMany(resource: ResourceModel, model: ApiModel): RelationModel[] {
  const found = new Set<RelationModel>()
  for (const path of resource.includes) {
    let current = resource
    for (const segment of path.split('.')) {
      const relation = current.relations.find((candidate) => candidate.name === segment)
      if (relation === undefined)
        throw new Error(`internal error: include path "${path}" of "${resource.name}" names no relation`)
      if (relation.kind === 'has-many') found.add(relation)
      current = findResource(model, relation.resource)
    }
  }
  return [...found]
}
