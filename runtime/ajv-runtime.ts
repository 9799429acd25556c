import ucs2length from 'ajv/dist/runtime/ucs2length.js'
import { fullFormats } from 'ajv-formats/dist/formats.js'

/**
 * What ajv's standalone validators call at run time. Generated validator
 * modules import it from here rather than from ajv, so a project only needs
 * restmint as a dependency.
 */
export const ajvRuntime = {
  ucs2length: ucs2length.default,
  formats: fullFormats,
}
