import type { ErrorObject } from 'ajv'

/** A validator compiled by the generator (ajv standalone); it narrows its input. */
export interface Validator<T> {
  (data: unknown): data is T
  errors?: ErrorObject[] | null
}

export type { ListQueryParameters as ListQuery } from './http/parse-list-query.js'

/** Query parameters of a single-resource GET. */
export interface ItemQuery {
  include?: string
}
