import type { ApiModel, ResourceModel } from './api-model.js'

/** Looks up a resource the validated manifest guarantees to exist. */
export function findResource(model: Pick<ApiModel, 'resources'>, name: string): ResourceModel {
  const resource = model.resources.find((candidate) => candidate.name === name)
  if (!resource) throw new Error(`internal error: the model has no resource ${JSON.stringify(name)}`)
  return resource
}
