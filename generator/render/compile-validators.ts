import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Ajv, _ } from 'ajv'
import addFormats from 'ajv-formats'
import standaloneCode from 'ajv/dist/standalone/index.js'
import ajvPackage from 'ajv/package.json' with { type: 'json' }
import { hashKey, type ContentCache } from '../emit/content-cache.js'

// Cached results depend on ajv and on how this module drives it (options,
// runtime linking): both go into the cache key.
const COMPILER_FINGERPRINT = hashKey(ajvPackage.version, readFileSync(fileURLToPath(import.meta.url), 'utf8'))

export type NamedSchemas = ReadonlyMap<string, object>

export interface CompiledValidators {
  /** ES module code defining and exporting one validator per distinct schema. */
  readonly code: string
  /** Further exports that reuse a validator with an identical schema: name → exported name. */
  readonly aliases: readonly { readonly name: string; readonly target: string }[]
}

const FORMATS = ['date', 'date-time', 'email', 'uri', 'uuid'] as const

/**
 * Compiles request body JSON Schemas into one ES module of named validator
 * exports (ajv standalone), so generated servers never compile schemas at
 * start-up. Bodies are never coerced (`"12"` for an integer is a 400).
 */
export function compileValidators(schemas: NamedSchemas, cache: ContentCache): CompiledValidators {
  const key = hashKey('ajv', COMPILER_FINGERPRINT, JSON.stringify([...schemas]))
  const cached = cache.read(key)
  if (cached !== null) return JSON.parse(cached) as CompiledValidators
  const compiled = compileUncached(schemas)
  cache.write(key, JSON.stringify(compiled))
  return compiled
}

function compileUncached(schemas: NamedSchemas): CompiledValidators {
  const ajv = new Ajv({
    strict: true,
    allErrors: true,
    // The schemas are restmint's own output (json-schemas.ts), not input: checking each against the
    // draft-07 meta-schema took ~0.5 s for 100 resources. Strict mode still refuses unknown keywords.
    validateSchema: false,
    // Messages are worded by the runtime (describe-validation-errors.ts); leaving
    // them out keeps the generated code a third smaller.
    messages: false,
    code: { source: true, esm: true, formats: _`ajvRuntime.formats` },
  })
  addFormats.default(ajv, [...FORMATS])
  // Documentation only (OpenAPI's registry: an exact decimal as a string): the field's `pattern` checks it.
  ajv.addFormat('decimal', true)
  const exports: Record<string, string> = {}
  const aliases: { name: string; target: string }[] = []
  const bySchema = new Map<string, string>()
  for (const [name, schema] of schemas) {
    const key = JSON.stringify(schema)
    const target = bySchema.get(key)
    if (target) {
      aliases.push({ name, target })
      continue
    }
    bySchema.set(key, name)
    ajv.addSchema(withoutDescriptions(schema), name)
    exports[name] = name
  }
  return { code: linkRuntime(standaloneCode.default(ajv, exports)), aliases }
}

/**
 * ajv's ESM output still `require()`s its runtime helpers
 * (ajv 8.20); point them at the re-exports in restmint/runtime instead.
 */
function linkRuntime(code: string): string {
  const linked = code
    .replace(/^"use strict";/, '')
    .replace(/require\("ajv\/dist\/runtime\/(\w+)"\)\.default/g, 'ajvRuntime.$1')
  if (linked.includes('require(')) {
    throw new Error('internal error: ajv standalone output needs a runtime helper restmint does not link')
  }
  return linked
}

/**
 * The schema without `description`s: they document, validate nothing, and
 * would be copied into the generated code with the schema. Only keywords are
 * dropped (a property named `description` stays), and key order is kept.
 */
function withoutDescriptions(schema: object): object {
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([keyword]) => keyword !== 'description')
      .map(([keyword, value]: [string, unknown]) => {
        if (keyword === 'properties' && isObject(value)) {
          const properties = Object.entries(value).map(([name, property]) => [name, withoutDescriptions(property)])
          return [keyword, Object.fromEntries(properties)]
        }
        if (keyword === 'items' && isObject(value)) return [keyword, withoutDescriptions(value)]
        if (keyword === 'anyOf' && Array.isArray(value))
          return [keyword, value.map((member: object) => withoutDescriptions(member))]
        return [keyword, value]
      }),
  )
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
