import type { ErrorObject } from 'ajv'

/** A validator compiled by the generator (ajv standalone); it narrows its input. */
export interface Validator<T> {
  (data: unknown): data is T
  errors?: ErrorObject[] | null
}

/** Query parameters of a collection GET, after validation (defaults applied). */
export interface ListQuery {
  page: number
  per_page: number
}

/** Query parameters of a single-resource GET: none yet. */
export type ItemQuery = Record<string, never>
