import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/shop-api/generated/server.js'
import { FILTER_OPERATORS } from '../../runtime/contract/filter-operator.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

interface Schema {
  type?: string
  enum?: (string | number)[]
  format?: string
  minimum?: number
  maximum?: number
  items?: Schema
  uniqueItems?: boolean
  maxItems?: number
}
interface Parameter {
  name: string
  in: 'path' | 'query'
  schema: Schema
}
interface Operation {
  parameters?: (Parameter | { $ref: string })[]
}

const document = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/shop-api/generated/v1/openapi.json'), 'utf8'),
) as {
  paths: Record<string, { get?: Operation }>
  components: { parameters: Record<string, Parameter> }
}

function resolve(parameter: Parameter | { $ref: string }): Parameter {
  return '$ref' in parameter ? document.components.parameters[parameter.$ref.split('/').pop()!]! : parameter
}

const VALID_FORMATS: Readonly<Record<string, string>> = {
  date: '2026-01-02',
  'date-time': '2026-01-02T03:04:05Z',
  email: 'ada@example.com',
  uri: 'https://example.com/',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
}

/** A value the schema allows, as a query string holds it. */
function validValue(schema: Schema): string {
  if (schema.enum) return String(schema.enum.at(-1))
  if (schema.format) return VALID_FORMATS[schema.format]!
  switch (schema.type) {
    case 'integer':
      return String(schema.minimum ?? 1)
    case 'number':
      return '1.5'
    case 'boolean':
      return 'false'
    default:
      return 'text'
  }
}

/** Values the schema refuses, each with what it breaks. */
function invalidValues(schema: Schema): [string, string][] {
  if (schema.enum) return [['enum', 'not-one-of-them']]
  const invalid: [string, string][] = []
  if (schema.format) invalid.push(['format', 'not-a-value-of-the-format'])
  if (schema.type === 'integer') invalid.push(['type', 'x'], ['type', '1.5'])
  if (schema.type === 'number') invalid.push(['type', 'x'])
  if (schema.type === 'boolean') invalid.push(['type', 'maybe'])
  if (schema.minimum !== undefined) invalid.push(['minimum', String(schema.minimum - 1)])
  if (schema.maximum !== undefined) invalid.push(['maximum', String(schema.maximum + 1)])
  return invalid
}

/** The URL of a GET path with its path parameters filled in: validation comes before any lookup. */
function urlOf(path: string): string {
  return path.replace(/\{[a-z0-9_]+\}/g, '1')
}

const gets = Object.entries(document.paths).flatMap(([path, item]) =>
  item.get
    ? [{ path, parameters: (item.get.parameters ?? []).map(resolve).filter((each) => each.in === 'query') }]
    : [],
)

/**
 * The OpenAPI document is the contract: every query parameter it documents,
 * with every bound and enum, is accepted within them and refused outside;
 * every parameter and filter operator it does not document is refused.
 */
for (const dialect of DIALECTS) {
  describe(`${dialect}: the server enforces exactly what the OpenAPI document says of query parameters`, () => {
    let app: FastifyInstance
    let storage: TestStorage

    beforeAll(async () => {
      storage = await openTestStorage(dialect)
      app = await buildServer({ storage: storage.storage, docs: false })
    })
    afterAll(async () => {
      await app.close()
      await storage.dispose()
    })

    /** The status, and the query parameters a 400 names. */
    async function send(path: string, query: string): Promise<{ status: number; names: string[] }> {
      const response = await app.inject({ method: 'GET', url: `${urlOf(path)}?${query}` })
      expect(response.statusCode, `${path}?${query}: ${response.body}`).toBeLessThan(500)
      const body = JSON.parse(response.body) as { errors?: { name?: string }[] }
      return { status: response.statusCode, names: (body.errors ?? []).map((error) => error.name ?? '') }
    }
    const accepted = async (path: string, query: string) =>
      expect((await send(path, query)).status, `${path}?${query} is documented`).not.toBe(400)
    const refused = async (path: string, query: string, name: string) => {
      const { status, names } = await send(path, query)
      expect(status, `${path}?${query} is not documented`).toBe(400)
      expect(names, `${path}?${query}`).toContain(name)
    }

    it('accepts every documented parameter within its schema and refuses it outside', async () => {
      for (const { path, parameters } of gets) {
        for (const { name, schema } of parameters) {
          // A cursor is only valid when this server issued it; the cursor tests cover it.
          if (name === 'cursor') continue
          const encoded = encodeURIComponent(name)
          if (schema.type === 'array') {
            const items = schema.items!
            await accepted(path, `${encoded}=${encodeURIComponent(validValue(items))}`)
            for (const [, value] of invalidValues(items))
              await refused(path, `${encoded}=${encodeURIComponent(value)}`, name)
            if (schema.uniqueItems && items.enum) {
              const twice = [items.enum[0], items.enum[0]].map(
                (value) => `${encoded}=${encodeURIComponent(String(value))}`,
              )
              await refused(path, twice.join('&'), name)
            }
            if (schema.maxItems !== undefined && items.enum && items.enum.length > schema.maxItems) {
              const many = items.enum.slice(0, schema.maxItems).map(String)
              await accepted(path, `${encoded}=${many.map(encodeURIComponent).join(',')}`)
              const tooMany = items.enum.slice(0, schema.maxItems + 1).map(String)
              await refused(path, `${encoded}=${tooMany.map(encodeURIComponent).join(',')}`, name)
            }
            continue
          }
          await accepted(path, `${encoded}=${encodeURIComponent(validValue(schema))}`)
          if (schema.minimum !== undefined) await accepted(path, `${encoded}=${schema.minimum}`)
          if (schema.maximum !== undefined) await accepted(path, `${encoded}=${schema.maximum}`)
          for (const [, value] of invalidValues(schema))
            await refused(path, `${encoded}=${encodeURIComponent(value)}`, name)
        }
      }
    })

    it('refuses every parameter and filter operator the document does not list', async () => {
      for (const { path, parameters } of gets) {
        const documented = new Set(parameters.map((parameter) => parameter.name))
        await refused(path, 'undocumented=1', 'undocumented')
        const fields = new Set([...documented].flatMap((name) => /^filter\[(\w+)\]/.exec(name)?.[1] ?? []))
        for (const field of fields) {
          for (const operator of FILTER_OPERATORS) {
            const name = `filter[${field}][${operator}]`
            if (!documented.has(name)) await refused(path, `${encodeURIComponent(name)}=1`, name)
          }
        }
      }
    })
  })
}
