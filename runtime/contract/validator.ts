import type { ErrorObject } from 'ajv'

/** A validator compiled by the generator (ajv standalone); it narrows its input. */
export interface Validator<T> {
  (data: unknown): data is T
  errors?: ErrorObject[] | null
}
