import type { ApiModel, ResourceModel } from './api-model.js'
import { findResource } from './find-resource.js'

/**
 * Whether some include path of `resource` embeds an array (walks through a
 * has-many relation): only then can a response cut one and carry
 * `meta.truncated`.
 */
export function includesHasMany(resource: ResourceModel, model: ApiModel): boolean {
  return resource.includes.some((path) => {
    let current = resource
    for (const segment of path.split('.')) {
      const relation = current.relations.find((candidate) => candidate.name === segment)
      if (relation === undefined) throw new Error(`internal error: include path "${path}" of "${resource.name}" names no relation`)
      if (relation.kind === 'has-many') return true
      current = findResource(model, relation.resource)
    }
    return false
  })
}
