import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { buildModel } from '../../generator/model/build-model.js'
import { findResource, type QueryParameterModel } from '../../generator/model/api-model.js'
import { buildParamsSchema, buildResourceSchemas, type JsonSchema } from '../../generator/render/json-schemas.js'
import { buildShopModel } from './shop-model.js'

const model = buildShopModel()

/** The options the generator compiles with (generator/render/compile-validators.ts). */
function compile(schema: JsonSchema, options: { coerce: boolean }): ValidateFunction {
  const ajv = new Ajv({
    strict: true,
    allErrors: true,
    coerceTypes: options.coerce,
    useDefaults: options.coerce,
  })
  addFormats.default(ajv, ['date', 'date-time', 'email', 'uri', 'uuid'])
  return ajv.compile(schema)
}

function schemasOf(name: string) {
  return buildResourceSchemas(findResource(model, name), model)
}

describe('JSON Schemas', () => {
  it('compile in ajv strict mode, each on its own (no $ref)', () => {
    for (const resource of model.resources) {
      const schemas = buildResourceSchemas(resource, model)
      for (const [name, schema] of Object.entries(schemas)) {
        if (schema === null) continue
        expect(JSON.stringify(schema), `${resource.name}.${name}`).not.toContain('$ref')
        expect(() => compile(schema, { coerce: name.endsWith('Query') }), `${resource.name}.${name}`).not.toThrow()
      }
      for (const route of resource.routes) {
        expect(() => compile(buildParamsSchema(route), { coerce: true }), route.path).not.toThrow()
      }
    }
  })

  it('never coerce body values: "12" for an integer is rejected', () => {
    const create = compile(schemasOf('items').createBody, { coerce: false })
    expect(create({ order_id: 1, quantity: 12 })).toBe(true)
    expect(create({ order_id: 1, quantity: '12' })).toBe(false)
    expect(create({ order_id: 1, quantity: 0 })).toBe(false)
  })

  it('reject read-only and unknown fields in bodies', () => {
    for (const body of ['createBody', 'replaceBody', 'updateBody'] as const) {
      const validate = compile(schemasOf('authors')[body], { coerce: false })
      expect(validate({ name: 'Ann', id: 1 }), body).toBe(false)
      expect(validate({ name: 'Ann', created_at: '2024-01-01T00:00:00Z' }), body).toBe(false)
      expect(validate({ name: 'Ann', nickname: 'A' }), body).toBe(false)
      expect(validate({ name: 'Ann' }), body).toBe(true)
    }
  })

  it('require required fields on create and replace, and nothing on update', () => {
    const { createBody, replaceBody, updateBody } = schemasOf('authors')
    expect(compile(createBody, { coerce: false })({})).toBe(false)
    expect(compile(replaceBody, { coerce: false })({ email: 'ann@example.org' })).toBe(false)
    expect(compile(updateBody, { coerce: false })({})).toBe(true)
  })

  it('accept null only for nullable fields', () => {
    const update = compile(schemasOf('items').updateBody, { coerce: false })
    expect(update({ note: null })).toBe(true)
    expect(update({ quantity: null })).toBe(false)
    const posts = compile(schemasOf('posts').updateBody, { coerce: false })
    expect(posts({ status: null, published_at: null })).toBe(true)
    expect(posts({ status: 'archived' })).toBe(false)
    // Optional without default: stored as null until set, but clients cannot send null.
    expect(compile(schemasOf('authors').updateBody, { coerce: false })({ email: null })).toBe(false)
  })

  it('check formats, enums, lengths and patterns', () => {
    const orders = compile(schemasOf('orders').createBody, { coerce: false })
    expect(orders({ status: 'paid', placed_on: '2024-02-29' })).toBe(true)
    expect(orders({ placed_on: '2024-02-30' })).toBe(false)
    expect(orders({ status: 'lost' })).toBe(false)
    const authors = compile(schemasOf('authors').createBody, { coerce: false })
    expect(authors({ name: 'x'.repeat(201) })).toBe(false)
    expect(authors({ name: 'Ann', email: 'not an email' })).toBe(false)
    const posts = compile(schemasOf('posts').createBody, { coerce: false })
    expect(posts({ title: 'Hi', category_id: 1, slug: 'Not A Slug' })).toBe(false)
    expect(posts({ title: '', category_id: 1 })).toBe(false)
    expect(posts({ title: 'Hi', category_id: 1, published_at: '2024-01-01T10:00:00Z' })).toBe(true)
    expect(posts({ title: 'Hi' })).toBe(false) // category is a required relation
  })

  it('take the parent key from the body only on top-level routes', () => {
    const { createBody, nestedCreateBody } = schemasOf('items')
    expect(createBody.required).toEqual(['quantity', 'order_id'])
    expect(compile(nestedCreateBody!, { coerce: false })({ quantity: 1 })).toBe(true)
    expect(compile(nestedCreateBody!, { coerce: false })({ quantity: 1, order_id: 1 })).toBe(false)
    expect(schemasOf('authors').nestedCreateBody).toBeNull()
  })

  it('describe records with every field, nullable where storage allows null', () => {
    const { record } = schemasOf('items')
    expect(Object.keys(record.properties!)).toEqual([
      'id',
      'quantity',
      'note',
      'order_id',
      'product_id',
      'created_at',
      'updated_at',
    ])
    expect(record.required).toEqual(Object.keys(record.properties!))
    expect(record.additionalProperties).toBe(false)
    expect(record.properties!.id).toMatchObject({ type: 'integer', readOnly: true })
    expect(record.properties!.created_at).toMatchObject({
      type: 'string',
      format: 'date-time',
      readOnly: true,
    })
    expect(record.properties!.note!.type).toEqual(['string', 'null'])
    expect(record.properties!.quantity!.type).toBe('integer')
  })

  it('list the query names a collection or item takes: include only where the resource whitelists some', () => {
    // The operator filters (`filter[<field>][<operator>]`) are one `filter` name.
    const names = (parameters: readonly QueryParameterModel[]) => [
      ...new Set(
        parameters.map((parameter) =>
          parameter.kind === 'filter' && parameter.form === 'operator' ? 'filter' : parameter.name,
        ),
      ),
    ]
    expect(names(findResource(model, 'posts').itemQuery)).toEqual(['include'])
    expect(names(findResource(model, 'products').itemQuery)).toEqual([])
    expect(names(findResource(model, 'products').listQuery)).not.toContain('include')
    // Every field of the record takes eq by default, so every one has an exact filter; title takes only `contains`.
    const fields = Object.keys(schemasOf('items').record.properties!)
    expect(names(findResource(model, 'items').listQuery)).toEqual([
      'page',
      'per_page',
      'cursor',
      'count',
      'sort',
      ...fields,
      'filter',
    ])
    expect(names(findResource(model, 'posts').listQuery)).toContain('include')
  })

  it('coerce path parameters to positive integers', () => {
    const route = findResource(model, 'items').routes.find((candidate) => candidate.path.endsWith('{item_id}'))!
    const params = compile(buildParamsSchema(route), { coerce: true })
    const good: Record<string, unknown> = { order_id: '3', item_id: '4' }
    expect(params(good)).toBe(true)
    expect(good).toEqual({ order_id: 3, item_id: 4 })
    for (const bad of ['0', '-1', '1.5', 'abc', '99999999999999999999']) {
      expect(params({ order_id: bad, item_id: '1' }), bad).toBe(false)
    }
  })

  it('cap integers at ±Number.MAX_SAFE_INTEGER unless the field is tighter', () => {
    const safe = Number.MAX_SAFE_INTEGER
    const record = schemasOf('items').record
    expect(record.properties!.id).toMatchObject({ minimum: -safe, maximum: safe })
    expect(record.properties!.quantity).toMatchObject({ minimum: 1, maximum: safe })
    const counters = buildModel(
      {
        restmint: 1,
        service: { title: 'Counters' },
        versions: { v1: {} },
        resources: {
          counters: {
            fields: {
              any: { type: 'integer' },
              wide: { type: 'integer', minimum: -1e20, maximum: 5 },
              ratio: { type: 'number' },
            },
          },
        },
      },
      'resources.yaml',
    )
    const body = buildResourceSchemas(counters.resources[0]!, counters).createBody
    expect(body.properties!.any).toEqual({ type: 'integer', minimum: -safe, maximum: safe })
    expect(body.properties!.wide).toEqual({ type: 'integer', minimum: -safe, maximum: 5 })
    expect(body.properties!.ratio).toEqual({ type: 'number' })
    const validate = compile(body, { coerce: false })
    expect(validate({ any: safe })).toBe(true)
    expect(validate({ any: safe + 2 })).toBe(false)
    expect(validate({ any: -safe - 2 })).toBe(false)
  })
})
