import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { validate, compileErrors } from '@readme/openapi-parser'
import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core'
import { Json } from '@stoplight/spectral-parsers'
import { oas } from '@stoplight/spectral-rulesets'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ApiModel } from '../../generator/model/api-model.js'
import { buildOpenApiDocument, type OpenApiDocument } from '../../generator/render/openapi-document.js'
import type { JsonSchema } from '../../generator/render/json-schemas.js'
import type { OpenApiMethod, OpenApiReference, OpenApiRequestBody } from '../../generator/render/openapi-objects.js'
import { shareQueryParameters } from '../../generator/render/share-query-parameters.js'
import { buildShopModel } from './shop-model.js'

const METHODS: readonly OpenApiMethod[] = ['get', 'post', 'put', 'patch', 'delete']

let model: ApiModel
let document: OpenApiDocument

beforeAll(() => {
  model = buildShopModel()
  document = buildOpenApiDocument(model, model.versions[0]!)
})

function operations(doc: OpenApiDocument) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ path, method, operation: item[method] }] : [])),
  )
}

describe('OpenAPI document: independent checks', () => {
  it('is a valid OpenAPI 3.1 document for @readme/openapi-parser', async () => {
    // What openapi.json holds; also a copy, as validate() dereferences in place.
    const result = await validate(JSON.parse(JSON.stringify(document)))
    expect(result.valid ? '' : compileErrors(result)).toBe('')
    expect(result.specification).toBe('OpenAPI')
  })

  it('validates and lints the committed generated/v1/openapi.json the same way', async () => {
    const committed = JSON.parse(readFileSync(join(import.meta.dirname, '../../generated/v1/openapi.json'), 'utf8'))
    const result = await validate(JSON.parse(JSON.stringify(committed)))
    expect(result.valid ? '' : compileErrors(result)).toBe('')
    expect((await lint('recommended', committed)).filter((line) => line.startsWith('error'))).toEqual([])
  })

  async function lint(ruleset: 'recommended' | 'all', target: object = document): Promise<string[]> {
    const spectral = new Spectral()
    // spectral-rulesets types `oas` without the `extends` key its own RulesetDefinition requires.
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, ruleset]] })
    const results = await spectral.run(new Document(JSON.stringify(target, null, 2), Json))
    const severities = ['error', 'warning', 'info', 'hint']
    return results.map((result) => `${severities[result.severity]} ${result.code} at ${result.path.join('.')}`)
  }

  // The manifest has no contact or license to publish, and inventing one would be worse.
  it('passes Spectral spectral:oas (the recommended rules) with no error and only the contact warning', async () => {
    expect(await lint('recommended')).toEqual(['warning info-contact at info'])
  })

  it('passes every spectral:oas rule with no error', async () => {
    expect(await lint('all')).toEqual([
      'warning info-contact at info',
      'warning info-license at info',
      'warning license-url at info',
      // Tags follow the manifest, the order its author chose for the reference page.
      'warning openapi-tags-alphabetical at tags',
    ])
  })

  it('is written with every query parameter shared in components, meaning the same document', () => {
    const shared = shareQueryParameters(document, model)
    const written = JSON.stringify(shared)
    const sharedParameters = Object.values(shared.components.parameters).map((parameter) => JSON.stringify(parameter))
    expect(new Set(sharedParameters).size, 'no parameter defined twice').toBe(sharedParameters.length)
    const inline = operations(JSON.parse(written) as OpenApiDocument).flatMap(({ operation }) =>
      (operation.parameters ?? []).filter((parameter) => !('$ref' in parameter)),
    )
    // Header parameters (If-Match, If-None-Match) stay on their operations, as path parameters stay on their paths.
    expect(inline.filter((parameter) => parameter.in !== 'header')).toEqual([])
    // Resolving every $ref gives back the document as built.
    const resolved = JSON.parse(written, function (this: unknown, key, value: unknown) {
      const ref = (value as Partial<OpenApiReference> | null)?.$ref
      return ref?.startsWith('#/components/parameters/') ? shared.components.parameters[ref.split('/').pop()!] : value
    }) as Record<string, unknown>
    const { parameters: _, ...components } = resolved.components as Record<string, unknown>
    expect({ ...resolved, components }).toEqual(JSON.parse(JSON.stringify(document)))
  })
})

describe('OpenAPI document: paths and operations', () => {
  it('describes every route under the version prefix, nested and flattened', () => {
    expect(Object.keys(document.paths)).toEqual([
      '/v1/authors',
      '/v1/authors/{id}',
      '/v1/products',
      '/v1/products/{id}',
      '/v1/orders',
      '/v1/orders/{id}',
      '/v1/items',
      '/v1/items/{id}',
      '/v1/orders/{order_id}/items',
      '/v1/orders/{order_id}/items/{item_id}',
      '/v1/posts',
      '/v1/posts/{id}',
      '/v1/categories',
      '/v1/categories/{id}',
      '/v1/comments',
      '/v1/comments/{id}',
      '/v1/posts/{post_id}/comments',
      '/v1/posts/{post_id}/comments/{comment_id}',
      '/v1/adjustments',
      '/v1/adjustments/{id}',
      '/v1/items/{item_id}/adjustments',
      '/v1/items/{item_id}/adjustments/{adjustment_id}',
    ])
  })

  it('never nests deeper than two levels', () => {
    for (const path of Object.keys(document.paths)) {
      const collections = path.split('/').filter((segment) => segment !== '' && !segment.startsWith('{'))
      expect(collections.length - 1, path).toBeLessThanOrEqual(2) // minus the version prefix
      expect(path.match(/\{/g)?.length ?? 0, path).toBeLessThanOrEqual(2)
    }
    expect(document.paths['/v1/orders/{order_id}/items/{item_id}/adjustments']).toBeUndefined()
  })

  it('gives every operation a unique, stable operationId', () => {
    const ids = operations(document).map(({ operation }) => operation.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.filter((id) => /Items?$/.test(id))).toEqual([
      'listItems',
      'createItem',
      'getItem',
      'replaceItem',
      'updateItem',
      'deleteItem',
      'listOrder_Items',
      'createOrder_Item',
      'getOrder_Item',
      'replaceOrder_Item',
      'updateOrder_Item',
      'deleteOrder_Item',
    ])
  })

  it('declares path parameters once per path item, as positive integers', () => {
    const item = document.paths['/v1/orders/{order_id}/items/{item_id}']!
    expect(item.parameters?.map((parameter) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ['order_id', 'path', true],
      ['item_id', 'path', true],
    ])
    expect(item.parameters?.[0]?.schema).toMatchObject({ type: 'integer', minimum: 1 })
    expect(item.parameters?.[0]?.description).toBe('Identifier of the order.')
    expect(item.parameters?.[1]?.description).toBe('Identifier of the item.')
    expect(document.paths['/v1/authors']!.parameters).toBeUndefined()
  })

  it('takes page and per_page on collections, with the manifest limits', () => {
    const parameters = document.paths['/v1/authors']!.get!.parameters!
    expect(parameters.slice(0, 3).map((parameter) => [parameter.name, parameter.in])).toEqual([
      ['page', 'query'],
      ['per_page', 'query'],
      ['cursor', 'query'],
    ])
    expect(parameters[1]!.schema).toEqual({ type: 'integer', minimum: 1, maximum: 50, default: 10 })
    expect(parameters[2]!.schema).toEqual({ type: 'string' })
  })

  it('answers POST with 201, a Location header and the record', () => {
    for (const path of ['/v1/authors', '/v1/orders/{order_id}/items']) {
      const created = document.paths[path]!.post!.responses['201']!
      expect(created).toMatchObject({ headers: { Location: { $ref: '#/components/headers/Location' } } })
    }
    expect(document.components.headers.Location).toMatchObject({ required: true, schema: { type: 'string' } })
    expect(document.paths['/v1/authors']!.post!.requestBody).toEqual({
      $ref: '#/components/requestBodies/AuthorCreate',
    })
    expect(document.paths['/v1/orders/{order_id}/items']!.post!.requestBody).toEqual({
      $ref: '#/components/requestBodies/ItemNestedCreate',
    })
    expect(document.components.requestBodies.AuthorCreate).toMatchObject({
      required: true,
      content: { 'application/json': { schema: { type: 'object', required: ['name'] } } },
    })
  })

  it('accepts JSON and JSON Merge Patch on PATCH', () => {
    const content = (document.paths['/v1/authors/{id}']!.patch!.requestBody as OpenApiRequestBody).content
    expect(Object.keys(content)).toEqual(['application/json', 'application/merge-patch+json'])
  })

  it('answers DELETE with 204 and no body', () => {
    expect(document.paths['/v1/authors/{id}']!.delete!.responses['204']).toEqual({
      description: 'Deleted; no body.',
    })
  })

  it('describes every error as application/problem+json', () => {
    for (const { operation } of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue
        const name = (response as OpenApiReference).$ref.replace('#/components/responses/', '')
        const content = document.components.responses[name]?.content
        expect(Object.keys(content ?? {}), `${operation.operationId} ${status}`).toEqual(['application/problem+json'])
      }
    }
    const statuses = (path: string, method: OpenApiMethod) => Object.keys(document.paths[path]![method]!.responses)
    expect(statuses('/v1/authors', 'get')).toEqual(['200', '400'])
    expect(statuses('/v1/authors/{id}', 'get')).toEqual(['200', '304', '400', '404'])
    expect(statuses('/v1/orders/{order_id}/items', 'get')).toEqual(['200', '400', '404'])
    expect(statuses('/v1/authors', 'post')).toEqual(['201', '400', '409', '413', '415']) // email is unique
    expect(statuses('/v1/products', 'post')).toEqual(['201', '400', '413', '415'])
    expect(statuses('/v1/orders/{order_id}/items', 'post')).toEqual(['201', '400', '404', '413', '415'])
    expect(statuses('/v1/products/{id}', 'patch')).toEqual(['200', '400', '404', '412', '413', '415'])
    expect(statuses('/v1/orders/{id}', 'delete')).toEqual(['204', '400', '404', '409', '412']) // items restrict
    expect(statuses('/v1/posts/{id}', 'delete')).toEqual(['204', '400', '404', '412']) // comments cascade
  })

  it('describes RFC 9457 problems with an errors array', () => {
    expect(document.components.schemas.Problem).toMatchObject({
      required: ['type', 'title', 'status', 'detail', 'code'],
      properties: {
        errors: { type: 'array', items: { properties: { in: { enum: ['body', 'query', 'path'] } } } },
      },
    })
  })
})

describe('OpenAPI document: query parameters and caching', () => {
  const parameter = (path: string, name: string) =>
    document.paths[path]!.get!.parameters?.find((candidate) => candidate.name === name)

  it('lists every query parameter of a collection, in order', () => {
    expect(document.paths['/v1/posts']!.get!.parameters!.map((candidate) => candidate.name)).toEqual([
      'page',
      'per_page',
      'cursor',
      'count',
      'sort',
      'include',
      'status',
      'author_id',
      'filter[status][eq]',
      'filter[status][in]',
      'filter[published_at][gte]',
      'filter[published_at][lte]',
      'filter[published_at][null]',
      'filter[author_id][eq]',
      'filter[title][contains]',
    ])
  })

  it('describes sort as a list of sortable keys, ascending or descending', () => {
    expect(parameter('/v1/posts', 'sort')).toMatchObject({
      style: 'form',
      explode: true,
      schema: {
        type: 'array',
        items: { enum: ['created_at', '-created_at', 'title', '-title', 'id', '-id'] },
        uniqueItems: true,
      },
    })
  })

  it('describes include as a list of the whitelisted paths, capped by include_max', () => {
    expect(parameter('/v1/orders', 'include')).toMatchObject({
      style: 'form',
      explode: true,
      schema: { type: 'array', items: { enum: ['items', 'items.product'] }, maxItems: 3 },
    })
    expect(parameter('/v1/orders/{id}', 'include')!.schema).toEqual(parameter('/v1/orders', 'include')!.schema)
    expect(parameter('/v1/products', 'include')).toBeUndefined()
    expect(document.paths['/v1/products/{id}']!.get!.parameters!.map((each) => each.name)).toEqual(['If-None-Match'])
  })

  it('types each filter operand like its field, except in (a list), null (a boolean) and text matches', () => {
    expect(parameter('/v1/posts', 'status')!.schema).toEqual({ type: 'string', enum: ['draft', 'published'] })
    expect(parameter('/v1/posts', 'filter[published_at][gte]')!.schema).toEqual({
      type: 'string',
      format: 'date-time',
    })
    expect(parameter('/v1/posts', 'filter[published_at][null]')!.schema).toEqual({ type: 'boolean' })
    expect(parameter('/v1/posts', 'filter[status][in]')).toMatchObject({
      style: 'form',
      explode: true,
      schema: { type: 'array', items: { type: 'string', enum: ['draft', 'published'] }, uniqueItems: true },
    })
    expect(parameter('/v1/posts', 'filter[title][contains]')!.description).toContain('ignoring case')
    expect(parameter('/v1/posts', 'title')).toBeUndefined() // no eq on title
  })

  // Issue 6, item 15: openapi-fetch and orval send arrays repeated by default; the server takes both forms.
  it('documents every list parameter in the repeated form and says the comma form means the same', () => {
    const lists = Object.values(document.paths).flatMap((item) =>
      (item.get?.parameters ?? []).filter((candidate) => candidate.schema.type === 'array'),
    )
    expect(new Set(lists.map((candidate) => candidate.name.replace(/^filter\[\w+\]/, 'filter[…]')))).toEqual(
      new Set(['sort', 'include', 'filter[…][in]']),
    )
    for (const list of lists) {
      expect(list, list.name).toMatchObject({ style: 'form', explode: true })
      expect(list.description, list.name).toContain(`(\`${list.name}=a&${list.name}=b\`)`)
      expect(list.description, list.name).toContain(`(\`${list.name}=a,b\`): both mean the same`)
    }
  })

  // Issue 6, item 14: the runtime refuses values outside the enum for eq, ne and in, and values not of the field's format.
  it('declares the enum on every eq, ne and in operand of an enum field, the format of every operand, and no bound the runtime does not check', () => {
    const schemaOf = (path: string, name: string) => parameter(path, name)!.schema
    const statuses = ['pending', 'paid', 'shipped']
    expect(schemaOf('/v1/orders', 'status')).toEqual({ type: 'string', enum: statuses })
    expect(schemaOf('/v1/orders', 'filter[status][eq]')).toEqual({ type: 'string', enum: statuses })
    expect(schemaOf('/v1/orders', 'filter[status][ne]')).toEqual({ type: 'string', enum: statuses })
    expect(schemaOf('/v1/orders', 'filter[status][in]')).toEqual({
      type: 'array',
      items: { type: 'string', enum: statuses },
      uniqueItems: true,
    })
    expect(schemaOf('/v1/adjustments', 'filter[rating][in]')).toMatchObject({
      items: { type: 'integer', enum: [1, 2, 3] },
    })
    const safe = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }
    expect(schemaOf('/v1/items/{item_id}/adjustments', 'rating')).toEqual({ type: 'integer', ...safe, enum: [1, 2, 3] })
    for (const operator of ['gt', 'gte', 'lt', 'lte', 'contains', 'starts_with']) {
      expect(schemaOf('/v1/orders', `filter[status][${operator}]`), operator).toEqual({ type: 'string' })
    }
    // Every enum field's eq, ne and in parameter, on every collection.
    for (const [path, item] of Object.entries(document.paths)) {
      for (const candidate of item.get?.parameters ?? []) {
        const match = /^filter\[(\w+)\]\[(eq|ne|in)\]$/.exec(candidate.name) ?? /^(\w+)()$/.exec(candidate.name)
        const resource = model.resources.find((each) => path.endsWith(`/${each.name}`))
        const field = resource?.fields.find((each) => each.name === match?.[1])
        if (!field?.enum) continue
        const operand = candidate.schema.type === 'array' ? candidate.schema.items! : candidate.schema
        expect(operand.enum, `${path} ${candidate.name}`).toEqual(field.enum)
      }
    }
    // Filter values are checked against the field's format (runtime/query/parse-query-value.ts), so it is claimed.
    expect(schemaOf('/v1/authors', 'filter[email][eq]')).toEqual({ type: 'string', format: 'email' })
    expect(schemaOf('/v1/categories', 'filter[website][in]')).toMatchObject({
      items: { type: 'string', format: 'uri' },
    })
    expect(schemaOf('/v1/comments', 'filter[token][eq]')).toEqual({ type: 'string', format: 'uuid' })
    expect(schemaOf('/v1/orders', 'filter[placed_on][gte]')).toEqual({ type: 'string', format: 'date' })
    // Integers: the range both databases hold alike, which the storage enforces; not the declared minimum.
    expect(schemaOf('/v1/items', 'filter[quantity][gte]')).toEqual({ type: 'integer', ...safe })
  })

  it('filters every field by default: its type’s operators (foreign keys eq, ne, in; id and timestamps fewer), null only where NULL is stored', () => {
    const operators = (path: string, field: string) =>
      document.paths[path]!.get!.parameters!.filter((candidate) => candidate.name.startsWith(`filter[${field}]`)).map(
        (candidate) => /\]\[(\w+)\]$/.exec(candidate.name)![1],
      )
    const comparisons = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in']
    expect(operators('/v1/items', 'note')).toEqual([...comparisons, 'contains', 'starts_with', 'null'])
    expect(operators('/v1/items', 'quantity')).toEqual(comparisons)
    expect(operators('/v1/items', 'id')).toEqual(['eq', 'in'])
    expect(operators('/v1/items', 'created_at')).toEqual(['eq', 'gt', 'gte', 'lt', 'lte'])
    expect(operators('/v1/items', 'updated_at')).toEqual(['eq', 'gt', 'gte', 'lt', 'lte'])
    expect(operators('/v1/products', 'in_stock')).toEqual(['eq', 'ne'])
    expect(operators('/v1/items', 'order_id')).toEqual(['eq', 'ne', 'in'])
    expect(operators('/v1/orders/{order_id}/items', 'product_id')).toEqual(['eq', 'ne', 'in', 'null'])
    // No `null` operator on a column that is NOT NULL, anywhere in the document.
    for (const resource of model.resources) {
      for (const filter of resource.filters) {
        const field = resource.fields.find((candidate) => candidate.name === filter.field)!
        if (!field.storedNullable)
          expect(operators(`/v1/${resource.name}`, field.name), `${resource.name}.${field.name}`).not.toContain('null')
      }
    }
  })

  it('sends Cache-Control from the manifest and Vary on every GET answer', () => {
    const headersOf = (doc: OpenApiDocument, path: string) =>
      (doc.paths[path]!.get!.responses['200'] as { headers: Record<string, { schema?: unknown }> }).headers
    for (const path of ['/v1/authors', '/v1/authors/{id}', '/v1/orders', '/v1/orders/{id}']) {
      const etag = path.endsWith('{id}') ? ['ETag'] : []
      expect(Object.keys(headersOf(document, path)), path).toEqual(['Cache-Control', 'Vary', ...etag])
      expect(headersOf(document, path).Vary).toEqual({ $ref: '#/components/headers/Vary' })
    }
    expect(headersOf(document, '/v1/authors')['Cache-Control']!.schema).toEqual({ type: 'string', enum: ['no-cache'] })
    expect(headersOf(document, '/v1/orders/{id}')['Cache-Control']!.schema).toEqual({
      type: 'string',
      enum: ['max-age=60'],
    })
    expect(document.components.headers.Vary).toMatchObject({ schema: { enum: ['Accept'] } })
    // The top-level cache: is the default; a resource's own cache: wins.
    const cached = buildShopModel({ serviceMaxAge: 5 })
    const cachedDocument = buildOpenApiDocument(cached, cached.versions[0]!)
    expect(headersOf(cachedDocument, '/v1/authors')['Cache-Control']!.schema).toEqual({
      type: 'string',
      enum: ['max-age=5'],
    })
    expect(headersOf(cachedDocument, '/v1/orders')['Cache-Control']!.schema).toEqual({
      type: 'string',
      enum: ['max-age=60'],
    })
  })

  it('answers 409 on DELETE of a record that relations still reference', () => {
    const statuses = (path: string) => Object.keys(document.paths[path]!.delete!.responses)
    expect(statuses('/v1/authors/{id}')).toEqual(['204', '400', '404', '409', '412']) // posts.author restricts
    expect(statuses('/v1/products/{id}')).toEqual(['204', '400', '404', '409', '412']) // items.product restricts
    expect(document.paths['/v1/authors/{id}']!.delete!.description).toContain('409 while posts still reference it')
  })
})

describe('OpenAPI document: components', () => {
  it('names every schema, response and header component', () => {
    const types = [
      ['Author', false],
      ['Product', false],
      ['Order', false],
      ['Item', true],
      ['Post', false],
      ['Category', false],
      ['Comment', true],
      ['Adjustment', true],
    ] as const
    const perResource = (type: string, nested: boolean) => [
      type,
      `${type}Update`,
      ...(nested ? [`${type}NestedUpdate`] : []),
      `${type}Page`,
    ]
    // Create and replace bodies are request bodies: openapi-typescript leaves their defaulted fields optional there.
    expect(Object.keys(document.components.requestBodies)).toEqual(
      types.flatMap(([type, nested]) => [
        `${type}Create`,
        `${type}Replace`,
        ...(nested ? [`${type}NestedCreate`, `${type}NestedReplace`] : []),
      ]),
    )
    expect(Object.keys(document.components.schemas)).toEqual([
      ...types.flatMap(([type, nested]) => perResource(type, nested)),
      'PageMeta',
      'PageLinks',
      'Problem',
      'IncludeTruncation',
    ])
    expect(Object.keys(document.components.responses)).toEqual([
      'BadRequest',
      'NotFound',
      'Conflict',
      'PayloadTooLarge',
      'UnsupportedMediaType',
      'NotModified',
      'PreconditionFailed',
    ])
    expect(Object.keys(document.components.headers)).toEqual(['Location', 'Vary', 'ETag'])
  })

  it('wraps collections in a reusable page envelope', () => {
    expect(document.components.schemas.AuthorPage).toMatchObject({
      properties: {
        data: { type: 'array', items: { $ref: '#/components/schemas/Author' } },
        meta: { $ref: '#/components/schemas/PageMeta' },
        links: { $ref: '#/components/schemas/PageLinks' },
      },
      required: ['data', 'meta', 'links'],
    })
    expect(document.components.schemas.PageLinks).toMatchObject({
      properties: {
        prev: { type: ['string', 'null'] },
        next: { type: ['string', 'null'] },
        last: { type: ['string', 'null'] },
      },
    })
  })

  it('describes pagination in PageMeta: next_cursor and count always, totals as count says', () => {
    const meta = document.components.schemas.PageMeta!
    expect(meta.required).toEqual(['per_page', 'count', 'next_cursor'])
    expect(meta.properties!.next_cursor).toMatchObject({ type: ['string', 'null'] })
    expect(Object.keys(meta.properties!)).toEqual([
      'page',
      'per_page',
      'count',
      'total',
      'total_pages',
      'next_cursor',
      'truncated',
    ])
  })

  it('shows relations as optional members of the record: an array, a record, or a record or null', () => {
    const post = document.components.schemas.Post!
    expect(post.required).not.toContain('author')
    expect(post.properties!.comments).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/Comment' },
    })
    // category is required, so category_id is never null.
    expect(post.properties!.category).toMatchObject({ $ref: '#/components/schemas/Category' })
    expect(post.properties!.author).toMatchObject({
      anyOf: [{ $ref: '#/components/schemas/Author' }, { type: 'null' }],
    })
    expect(post.properties!.author_id).toMatchObject({ type: ['integer', 'null'], minimum: 1 })
    expect(post.properties!.category_id).toMatchObject({ type: 'integer' })
    expect(document.components.schemas.Item!.properties!.product).toBeDefined()
    expect(document.components.schemas.Product!.properties).not.toHaveProperty('items')
  })

  // Issue 6, item 11.
  it('caps embedded arrays at include_items_max and documents meta.truncated where an include can cut one', () => {
    expect(model.limits.includeItemsMax).toBe(50) // default 50, not above per_page_max 50
    expect(document.components.schemas.Post!.properties!.comments).toMatchObject({ type: 'array', maxItems: 50 })
    expect(document.components.schemas.Post!.properties!.comments!.description).toContain('`meta.truncated`')
    expect(document.components.schemas.PageMeta!.properties!.truncated).toEqual({
      description: expect.stringContaining('Absent when none was cut'),
      type: 'array',
      items: { $ref: '#/components/schemas/IncludeTruncation' },
    })
    expect(document.components.schemas.IncludeTruncation).toMatchObject({
      required: ['pointer', 'relation', 'returned', 'next'],
      properties: { pointer: { format: 'json-pointer' }, next: { type: ['string', 'null'], format: 'uri-reference' } },
    })
    const itemEnvelope = (path: string) =>
      (document.paths[path]!.get!.responses['200'] as { content: Record<string, { schema: JsonSchema }> }).content[
        'application/json'
      ]!.schema
    expect(Object.keys(itemEnvelope('/v1/posts/{id}').properties!)).toEqual(['data', 'meta'])
    expect(itemEnvelope('/v1/posts/{id}').properties!.meta).toMatchObject({
      properties: { truncated: { items: { $ref: '#/components/schemas/IncludeTruncation' } } },
      required: ['truncated'],
    })
    // Without an include that embeds an array, the envelope is `{ data }` alone.
    expect(Object.keys(itemEnvelope('/v1/items/{id}').properties!)).toEqual(['data'])
    expect(Object.keys(itemEnvelope('/v1/products/{id}').properties!)).toEqual(['data'])
    expect(document.paths['/v1/posts']!.get!.description).toContain(
      'Embedded arrays hold at most 50 records, the first',
    )

    const small = buildShopModel({ limits: { per_page_max: 10, per_page_default: 5 } })
    expect(small.limits.includeItemsMax).toBe(10)
    const declared = buildShopModel({ limits: { include_items_max: 7 }, commentsMaxItems: 3 })
    const declaredDocument = buildOpenApiDocument(declared, declared.versions[0]!)
    expect(declaredDocument.components.schemas.Order!.properties!.items).toMatchObject({ maxItems: 7 })
    // A relation's own max_items wins, and the operation says so.
    expect(declaredDocument.components.schemas.Post!.properties!.comments).toMatchObject({ maxItems: 3 })
    expect(declaredDocument.paths['/v1/posts/{id}']!.get!.description).toContain(
      'Embedded arrays hold at most 7 records (comments: 3), the first by id',
    )
  })

  it('leaves meta.truncated and IncludeTruncation out when no include embeds an array', () => {
    const plain = buildShopModel({ includes: false })
    const plainDocument = buildOpenApiDocument(plain, plain.versions[0]!)
    expect(plainDocument.components.schemas.PageMeta!.properties).not.toHaveProperty('truncated')
    expect(plainDocument.components.schemas).not.toHaveProperty('IncludeTruncation')
  })

  it('leaves out Conflict when nothing can conflict', () => {
    const plain = buildShopModel({ unique: false, restrict: false })
    const doc = buildOpenApiDocument(plain, plain.versions[0]!)
    expect(Object.keys(doc.components.responses)).not.toContain('Conflict')
  })

  it('refuses a resource whose type name takes a built-in component name', () => {
    const clashing = buildShopModel({ extraResource: 'problems' })
    expect(() => buildOpenApiDocument(clashing, clashing.versions[0]!)).toThrow(/"Problem"/)
  })

  it('is deterministic', () => {
    const again = buildShopModel()
    expect(JSON.stringify(buildOpenApiDocument(again, again.versions[0]!))).toBe(JSON.stringify(document))
  })

  it('uses base_url as the server, and the version as info.version', () => {
    expect(document.servers).toEqual([{ url: 'http://localhost:3000' }])
    expect(document.info.version).toBe('v1')
    const local = buildShopModel({ baseUrl: null })
    expect(buildOpenApiDocument(local, local.versions[0]!).servers).toEqual([{ url: '/' }])
  })
})
