import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { Ajv, _, type ErrorObject, type ValidateFunction } from 'ajv'
import formatsModule from 'ajv-formats'
import standaloneCode from 'ajv/dist/standalone/index.js'
import ajvPackage from 'ajv/package.json' with { type: 'json' }
import ajvFormatsPackage from 'ajv-formats/package.json' with { type: 'json' }
import schema from '../../manifest.schema.json' with { type: 'json' }
import { createContentCache, findCacheDirectory, hashKey } from '../emit/content-cache.js'
import { didYouMean } from '../diagnostics/did-you-mean.js'
import type { ManifestPath } from '../manifest/source-ranges.js'
import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'
import { describePath } from './describe-path.js'
import { describeValue } from './describe-value.js'

/**
 * Name patterns and lengths are in the schema so editors flag bad names, but
 * the naming checks report those names with rule IDs and fixes, so ajv's
 * version is dropped.
 */
const SUPERSEDED = /\/propertyNames(\/|$)|\/singular\/(pattern|maxLength)$/

type SchemaNode = Readonly<Record<string, unknown>>

let validator: ValidateFunction | undefined

/**
 * Validates the data against manifest.schema.json (ajv, all errors) and maps
 * every error back to the YAML: unknown keys to the key token (UNKNOWN_KEY,
 * with a did-you-mean), missing keys to the key of the map that lacks them,
 * bad values to the value (SCHEMA). Each message names the bad value and what
 * is allowed there; a value gets one message however many keywords it fails.
 */
export function checkSchema(context: CheckContext, data: unknown): void {
  validator ??= compileSchema()
  if (validator(data)) return
  const reportedValues = new Set<string>()
  for (const error of validator.errors ?? []) {
    if (SUPERSEDED.test(error.schemaPath)) continue
    const path = parsePointer(error.instancePath)
    if (error.keyword === 'additionalProperties') reportUnknownKey(context, data, path, error)
    else if (error.keyword === 'required') reportMissingKey(context, path, error)
    else if (error.keyword === 'uniqueItems') reportDuplicateItem(context, path, error)
    else if (!reportedValues.has(error.instancePath)) {
      reportedValues.add(error.instancePath)
      reportBadValue(context, path, error)
    }
  }
}

/**
 * Compiling the manifest schema takes ~0.4 s of CPU, in every process that
 * validates a manifest (serve of a project with an app module, check, migrate
 * create, a generate whose result is not cached): the validator's code (ajv
 * standalone) is cached under the hash of the schema, ajv and this module, so
 * a process compiles it only once per schema.
 */
function compileSchema(): ValidateFunction {
  const cache = createContentCache(findCacheDirectory(process.cwd()))
  const key = hashKey(
    'manifest-validator',
    ajvPackage.version,
    ajvFormatsPackage.version,
    readFileSync(fileURLToPath(import.meta.url), 'utf8'),
    JSON.stringify(schema),
  )
  let code = cache.read(key)
  if (code === null) {
    // verbose: errors carry the failing value and their schema, which the messages describe.
    const ajv = new Ajv({
      allErrors: true,
      strict: true,
      verbose: true,
      code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
    })
    formatsModule.default(ajv)
    code = standaloneCode.default(ajv, ajv.compile(schema))
    cache.write(key, code)
  }
  // CommonJS that require()s ajv's runtime helpers and ajv-formats' formats, resolved from here.
  const module = { exports: {} as ValidateFunction }
  new Function('module', 'exports', 'require', code)(module, module.exports, createRequire(import.meta.url))
  return module.exports
}

function reportUnknownKey(context: CheckContext, data: unknown, path: ManifestPath, error: ErrorObject): void {
  const key = String(error.params.additionalProperty)
  const allowed = Object.keys(asRecord(asSchema(error.parentSchema).properties) ?? {})
  const where = path.length === 0 ? 'at the top level' : `in ${describePath(path)}`
  const suggestion = didYouMean(key, allowed)
  let hint: string
  if (suggestion !== null) hint = `did you mean "${suggestion}"?`
  else if (allowed.length === 0) hint = `${describePath(path)} takes no keys yet: write {}`
  else hint = `allowed keys: ${allowed.join(', ')}`
  // A field written directly under its resource is the likeliest reason for an unknown resource key.
  const misplacedField =
    allowed.includes('fields') && asRecord(asRecord(valueAt(data, path))?.[key])?.type !== undefined
  if (misplacedField) hint += `; fields go under "fields:"`
  context.report('UNKNOWN_KEY', `unknown key ${JSON.stringify(key)} ${where}; ${hint}`, context.atKey([...path, key]))
}

function reportMissingKey(context: CheckContext, path: ManifestPath, error: ErrorObject): void {
  const key = String(error.params.missingProperty)
  const property = asSchema(asRecord(asSchema(error.parentSchema).properties)?.[key])
  let hint = ''
  if (property.const !== undefined) hint = `: add ${key}: ${JSON.stringify(property.const)}`
  else if (Array.isArray(property.enum)) hint = ` (one of ${property.enum.join(', ')})`
  // The root map has no key to point at: point at its first character.
  const root = context.atValue([])
  const at = path.length === 0 ? { start: root.start, end: root.start } : context.atKey(path)
  context.report('SCHEMA', `${describePath(path)} is missing the required key "${key}"${hint}`, at)
}

function reportDuplicateItem(context: CheckContext, path: ManifestPath, error: ErrorObject): void {
  // The later duplicate is the one to remove. ajv calls it `i` or `j` depending on
  // whether the items have a scalar type (a hash lookup) or not (pairwise comparison).
  const index = Math.max(Number(error.params.i), Number(error.params.j))
  const item: unknown = Array.isArray(error.data) ? error.data[index] : undefined
  context.report(
    'SCHEMA',
    `${describePath(path)} lists ${describeValue(item)} more than once; list each value once`,
    context.atValue([...path, index]),
  )
}

function reportBadValue(context: CheckContext, path: ManifestPath, error: ErrorObject): void {
  const value: unknown = error.data
  if (path.length === 0) {
    const message =
      value === null || value === undefined
        ? 'the manifest is empty; it must be a map that starts with restmint: 1'
        : `the manifest must be a map of restmint, service, versions and resources; found ${describeValue(value)}`
    context.report('SCHEMA', message, context.atValue(path))
    return
  }
  const expected = describeExpected(asSchema(error.parentSchema))
  const choices = asSchema(error.parentSchema).enum
  const near = typeof value === 'string' && Array.isArray(choices) ? didYouMean(value, choices.map(String)) : null
  let hint = near === null ? '' : `; did you mean "${near}"?`
  // `[eq, null]`: YAML reads a bare null as no value at all.
  if (value === null && Array.isArray(choices) && choices.includes('null'))
    hint = '; write "null" in quotes, or YAML reads it as no value'
  const message =
    expected === null
      ? `${describePath(path)} ${error.message ?? 'is invalid'}`
      : `${describePath(path)} must be ${expected}; found ${describeValue(value)}${hint}`
  context.report('SCHEMA', message, context.atValue(path))
}

/** What a schema accepts, in words; null for shapes the manifest schema does not use. */
function describeExpected(node: SchemaNode): string | null {
  if (node.const !== undefined) return JSON.stringify(node.const)
  if (Array.isArray(node.enum)) return `one of ${node.enum.join(', ')}`
  switch (node.type) {
    case 'integer':
      if (node.minimum === 1 && typeof node.maximum === 'number') return `an integer from 1 to ${node.maximum}`
      if (node.minimum === 1) return 'a positive integer'
      return node.minimum === 0 ? 'a non-negative integer' : 'an integer'
    case 'number':
      return 'a number'
    case 'boolean':
      return 'true or false'
    case 'string':
      if (node.format === 'uri' && node.pattern !== undefined) return 'an absolute http(s) URL'
      if (node.format === 'uri') return 'an absolute URI such as http://localhost:3000'
      if (node.format === 'date') return 'a date YYYY-MM-DD that exists'
      if (node.minLength === 1) return 'a non-empty string'
      return 'a string'
    case 'array':
      return node.minItems === 1 ? 'a non-empty list' : 'a list'
    case 'object':
      if (node.minProperties === 1) return 'a map with at least one entry'
      return node.properties === undefined && node.additionalProperties === false ? 'an empty map {}' : 'a map'
    default:
      return null
  }
}

function asSchema(node: unknown): SchemaNode {
  return asRecord(node) ?? {}
}

/** A JSON Pointer as path segments; list indexes become numbers. */
function parsePointer(pointer: string): ManifestPath {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((segment) => (/^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment))
}

function valueAt(data: unknown, path: ManifestPath): unknown {
  let value = data
  for (const segment of path) {
    const container: unknown = value
    if (Array.isArray(container) && typeof segment === 'number') value = container[segment]
    else {
      const record = asRecord(container)
      value = record !== null && Object.hasOwn(record, String(segment)) ? record[String(segment)] : undefined
    }
  }
  return value
}
