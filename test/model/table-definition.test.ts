import { describe, expect, it } from 'vitest'
import { buildModel } from '../../generator/model/build-model.js'
import { findResource } from '../../generator/model/api-model.js'
import { buildShopModel } from '../openapi/shop-model.js'

const model = buildShopModel()
const tableOf = (name: string) => findResource(model, name).definition

describe('table definitions: relations', () => {
  it('add a belongs-to key after the parent key, nullable unless the relation is required', () => {
    const columns = tableOf('posts').columns
    expect(columns.map((column) => column.name)).toEqual([
      'id',
      'title',
      'slug',
      'published_at',
      'status',
      'author_id',
      'category_id',
      'created_at',
      'updated_at',
    ])
    expect(columns.find((column) => column.name === 'author_id')).toMatchObject({
      type: 'integer',
      nullable: true,
      default: null,
      references: { table: 'authors', onDelete: 'restrict' },
    })
    expect(columns.find((column) => column.name === 'category_id')).toMatchObject({
      nullable: false,
      references: { table: 'categories', onDelete: 'restrict' },
    })
    expect(
      tableOf('items')
        .columns.map((column) => column.name)
        .slice(-4),
    ).toEqual(['order_id', 'product_id', 'created_at', 'updated_at'])
  })

  it('list every relation: a belongs-to by its own key, a has-many by the key on the target', () => {
    expect(tableOf('posts').relations).toEqual([
      { name: 'author', kind: 'belongs-to', table: 'authors', column: 'author_id' },
      { name: 'category', kind: 'belongs-to', table: 'categories', column: 'category_id' },
      { name: 'comments', kind: 'has-many', table: 'comments', column: 'post_id', listPath: '/posts/{id}/comments' },
    ])
    expect(tableOf('orders').relations).toEqual([
      { name: 'items', kind: 'has-many', table: 'items', column: 'order_id', listPath: '/orders/{id}/items' },
    ])
    expect(tableOf('authors').relations).toEqual([
      { name: 'posts', kind: 'has-many', table: 'posts', column: 'author_id', listPath: '/posts?author_id={id}' },
    ])
    expect(tableOf('categories').relations).toEqual([])
  })

  it('make relation keys referencedBy their targets, so DELETE restricts or cascades', () => {
    expect(tableOf('authors').referencedBy).toEqual([
      { table: 'posts', resource: 'posts', column: 'author_id', onDelete: 'restrict' },
    ])
    expect(tableOf('products').referencedBy).toEqual([
      { table: 'items', resource: 'items', column: 'product_id', onDelete: 'restrict' },
    ])
    const cascading = buildShopModel({ restrict: false })
    expect(findResource(cascading, 'categories').definition.referencedBy).toEqual([
      { table: 'posts', resource: 'posts', column: 'category_id', onDelete: 'cascade' },
    ])
  })

  it('follow via to the link it names', () => {
    const viaModel = buildModel(
      {
        restmint: 1,
        service: { title: 'T' },
        versions: { v1: {} },
        resources: {
          authors: { relations: { edited: { resource: 'posts', many: true, via: 'editor' } } },
          posts: { relations: { author: { resource: 'authors' }, editor: { resource: 'authors' } } },
        },
      },
      'resources.yaml',
    )
    expect(findResource(viaModel, 'authors').relations).toEqual([
      {
        name: 'edited',
        kind: 'has-many',
        resource: 'posts',
        foreignKey: 'editor_id',
        via: 'editor',
        through: null,
        listPath: '/posts?editor_id={id}',
        maxItems: 50,
      },
    ])
  })

  // Issue 6, item 11: where a cut embedded array links to for the rest.
  it('list the rest of a has-many by the nested route, else an exact or in filter on the key, else nowhere', () => {
    const listPaths = (filter: Record<string, ('eq' | 'in' | 'null')[]>) => {
      const built = buildModel(
        {
          restmint: 1,
          service: { title: 'T' },
          versions: { v1: {} },
          resources: {
            authors: {
              relations: {
                posts: { resource: 'posts', many: true },
                notes: { resource: 'notes', many: true },
              },
            },
            posts: { relations: { author: { resource: 'authors' } }, filter },
            notes: { parent: 'authors', filter: {} },
          },
        },
        'resources.yaml',
      )
      return findResource(built, 'authors').relations.map((relation) => relation.listPath)
    }
    expect(listPaths({ author_id: ['eq', 'in'] })).toEqual(['/posts?author_id={id}', '/authors/{id}/notes'])
    expect(listPaths({ author_id: ['in'] })).toEqual([
      '/posts?filter%5Bauthor_id%5D%5Bin%5D={id}',
      '/authors/{id}/notes',
    ])
    expect(listPaths({ author_id: ['null'] })).toEqual([null, '/authors/{id}/notes'])
    expect(listPaths({})).toEqual([null, '/authors/{id}/notes'])
  })

  it("carry a has-many's own max_items, and only when it differs from limits.include_items_max", () => {
    const relationsWith = (commentsMaxItems: number) => {
      const shop = buildShopModel({ commentsMaxItems })
      return findResource(shop, 'posts').definition.relations
    }
    expect(relationsWith(5)?.find((relation) => relation.name === 'comments')).toMatchObject({ maxItems: 5 })
    expect(relationsWith(50)?.find((relation) => relation.name === 'comments')).not.toHaveProperty('maxItems')
    expect(tableOf('orders').relations?.[0]).not.toHaveProperty('maxItems')
  })
})

describe('table definitions: indexes', () => {
  it('index each sortable field with id, then each filterable field not covered yet', () => {
    // posts: sort [created_at, title]; filter status, published_at, author_id (a foreign key), title.
    expect(tableOf('posts').indexes).toEqual([
      { columns: ['created_at', 'id'] },
      { columns: ['status'] },
      { columns: ['published_at'] },
    ])
  })

  it('skip id, unique and foreign key columns, and strings of unbounded length', () => {
    // authors: name (max_length 200), email (unique, unbounded); every field sortable and filterable by default.
    expect(tableOf('authors').indexes).toEqual([
      { columns: ['name', 'id'] },
      { columns: ['created_at', 'id'] },
      { columns: ['updated_at', 'id'] },
    ])
    // items: note is an unbounded string; order_id and product_id are foreign keys.
    expect(tableOf('items').indexes).toEqual([
      { columns: ['quantity', 'id'] },
      { columns: ['created_at', 'id'] },
      { columns: ['updated_at', 'id'] },
    ])
  })
})

describe('query rules in the model', () => {
  it('default to every field but foreign keys for sort, id last', () => {
    expect(findResource(model, 'items').sortable).toEqual(['quantity', 'note', 'created_at', 'updated_at', 'id'])
    expect(findResource(model, 'posts').sortable).toEqual(['created_at', 'title', 'id'])
  })

  it('default to every field for filters, with its type’s operators; foreign keys with eq, ne, in; null only where NULL is stored', () => {
    const filters = Object.fromEntries(
      findResource(model, 'products').filters.map((filter) => [filter.field, filter.operators]),
    )
    expect(filters.in_stock).toEqual(['eq', 'ne'])
    expect(filters.price).toEqual(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in'])
    expect(filters.title).toContain('starts_with')
    const items = Object.fromEntries(
      findResource(model, 'items').filters.map((filter) => [filter.field, filter.operators]),
    )
    expect(items.order_id).toEqual(['eq', 'ne', 'in'])
    expect(items.product_id).toEqual(['eq', 'ne', 'in', 'null'])
    expect(items.note).toContain('null')
    expect(findResource(model, 'posts').filters.map((filter) => filter.field)).toEqual([
      'status',
      'published_at',
      'author_id',
      'title',
    ])
  })

  it('take includes as listed, and Cache-Control from the resource, the service, or no-cache', () => {
    expect(findResource(model, 'orders').includes).toEqual(['items', 'items.product'])
    expect(findResource(model, 'products').includes).toEqual([])
    expect(findResource(model, 'orders').cacheControl).toBe('max-age=60')
    expect(findResource(model, 'products').cacheControl).toBe('no-cache')
    expect(findResource(buildShopModel({ serviceMaxAge: 0 }), 'products').cacheControl).toBe('max-age=0')
  })
})
