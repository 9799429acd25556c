/**
 * A small OpenAPI document in the shape restmint renders (components with
 * `$ref`s, problem+json errors), for rule tests to edit one thing at a time.
 */
export function contractDocument(version = 'v1') {
  const record = (schema: string) => ({
    type: 'object',
    properties: { data: { $ref: `#/components/schemas/${schema}` } },
    required: ['data'],
    additionalProperties: false,
  })
  const json = (schema: object) => ({ 'application/json': { schema } })
  const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } }
  const id = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } })
  const ref = (name: string) => ({ $ref: `#/components/parameters/${name}` })
  const listComments = {
    tags: ['comments'],
    parameters: [ref('per_page')],
    responses: { '200': { content: json({ $ref: '#/components/schemas/CommentPage' }) } },
  }
  const getComment = { tags: ['comments'], responses: { '200': { content: json(record('Comment')) } } }
  return {
    openapi: '3.1.0',
    info: { title: 'Blog', version },
    paths: {
      [`/${version}/posts`]: {
        get: {
          tags: ['posts'],
          parameters: [
            ref('per_page'),
            ref('Post.sort'),
            ref('Post.include'),
            ref('Post.status'),
            ref('Post.filter.price.gte'),
            ref('filter.author_id.eq'),
          ],
          responses: {
            '200': { content: json({ $ref: '#/components/schemas/PostPage' }) },
            '400': { $ref: '#/components/responses/BadRequest' },
          },
        },
        post: {
          tags: ['posts'],
          requestBody: { required: true, content: json({ $ref: '#/components/schemas/PostCreate' }) },
          responses: {
            '201': { content: json(record('Post')) },
            '400': { $ref: '#/components/responses/BadRequest' },
          },
        },
      },
      [`/${version}/posts/{id}`]: {
        parameters: [id('id')],
        get: { tags: ['posts'], responses: { '200': { content: json(record('Post')) } } },
        patch: {
          tags: ['posts'],
          requestBody: {
            required: true,
            content: {
              ...json({ $ref: '#/components/schemas/PostUpdate' }),
              'application/merge-patch+json': { schema: { $ref: '#/components/schemas/PostUpdate' } },
            },
          },
          responses: { '200': { content: json(record('Post')) } },
        },
        delete: {
          tags: ['posts'],
          responses: { '204': { description: 'Deleted.' } },
          security: [{ user: ['posts:admin'] }],
          'x-restmint-access': {
            rules: ['owner', { scopes: ['posts:admin'] }],
            owner: { field: 'owner_sub', claim: 'sub' },
          },
        },
      },
      [`/${version}/comments`]: { get: listComments },
      [`/${version}/comments/{id}`]: { parameters: [id('id')], get: getComment },
      [`/${version}/posts/{post_id}/comments`]: { parameters: [id('post_id')], get: listComments },
      [`/${version}/posts/{post_id}/comments/{comment_id}`]: {
        parameters: [id('post_id'), id('comment_id')],
        get: getComment,
      },
      [`/${version}/authors`]: {
        get: { tags: ['authors'], responses: { '200': { content: json({ type: 'object' }) } } },
      },
      [`/${version}/authors/{id}`]: {
        parameters: [id('id')],
        get: { tags: ['authors'], responses: { '200': { content: json({ type: 'object' }) } } },
      },
    },
    components: {
      schemas: {
        Post: {
          type: 'object',
          properties: {
            id: { type: 'integer', readOnly: true },
            title: { type: 'string', maxLength: 300 },
            body: { type: ['string', 'null'] },
            status: { type: 'string', enum: ['draft', 'published'] },
            author_id: { type: ['integer', 'null'] },
            author: { anyOf: [{ type: 'object' }, { type: 'null' }] },
            comments: { type: 'array', items: { $ref: '#/components/schemas/Comment' } },
          },
          required: ['id', 'title', 'body', 'status', 'author_id'],
          additionalProperties: false,
        },
        PostCreate: {
          type: 'object',
          properties: {
            title: { type: 'string', minLength: 1, maxLength: 300, pattern: '^[A-Z]' },
            body: { type: 'string' },
            price: { type: ['number', 'null'], minimum: 0, maximum: 1000 },
            status: { type: 'string', enum: ['draft', 'published'] },
            author_id: { type: ['integer', 'null'] },
          },
          required: ['title'],
          additionalProperties: false,
        },
        PostUpdate: {
          type: 'object',
          properties: { title: { type: 'string', maxLength: 300 }, body: { type: 'string' } },
          additionalProperties: false,
        },
        PostPage: {
          type: 'object',
          properties: {
            data: { type: 'array', items: { $ref: '#/components/schemas/Post' } },
            meta: { type: 'object' },
            links: { type: 'object' },
          },
          required: ['data', 'meta', 'links'],
        },
        Comment: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            body: { type: 'string' },
            post: { $ref: '#/components/schemas/Post' },
          },
          required: ['id', 'body'],
        },
        CommentPage: {
          type: 'object',
          properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Comment' } } },
          required: ['data'],
        },
        Problem: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] },
      },
      responses: { BadRequest: { content: problem } },
      parameters: {
        per_page: { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
        'Post.sort': {
          name: 'sort',
          in: 'query',
          schema: { type: 'array', items: { type: 'string', enum: ['title', '-title', 'id', '-id'] } },
        },
        'Post.include': {
          name: 'include',
          in: 'query',
          schema: { type: 'array', items: { type: 'string', enum: ['author', 'comments'] }, maxItems: 3 },
        },
        'Post.status': { name: 'status', in: 'query', schema: { type: 'string', enum: ['draft', 'published'] } },
        'Post.filter.price.gte': { name: 'filter[price][gte]', in: 'query', schema: { type: 'number' } },
        'filter.author_id.eq': { name: 'filter[author_id][eq]', in: 'query', schema: { type: 'integer' } },
      },
    },
  }
}

export type ContractDocument = ReturnType<typeof contractDocument>

type Node = Record<string, unknown>

/** The document's parts, typed loosely for edits. */
export const schemasOf = (document: ContractDocument) => document.components.schemas as unknown as Record<string, Node>
export const propertiesOf = (document: ContractDocument, schema: string) =>
  schemasOf(document)[schema]!.properties as Record<string, Node>
export const pathsOf = (document: ContractDocument) => document.paths as unknown as Record<string, Record<string, Node>>

/** Moves `object[from]` to `object[to]`. */
export function renameKey(object: Record<string, unknown>, from: string, to: string) {
  object[to] = object[from]
  delete object[from]
}
