import { fullFormats } from 'ajv-formats/dist/formats.js'
import type { ErrorObject } from 'ajv'

/** A validator compiled by the generator (ajv standalone); it narrows its input. */
export interface Validator<T> {
  (data: unknown): data is T
  errors?: ErrorObject[] | null
}

/**
 * What ajv's standalone validators call at run time. Generated validator
 * modules import it from here rather than from ajv, so a project only needs
 * restmint as a dependency.
 */
export const ajvRuntime = {
  /** String length in code points, as JSON Schema counts it (ajv's `ucs2length`). */
  ucs2length(value: string): number {
    let length = 0
    for (const _codePoint of value) length++
    return length
  },
  formats: fullFormats,
}
