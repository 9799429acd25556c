import type { Manifest } from '../../generator/manifest/manifest.js'
import type { ApiModel } from '../../generator/model/api-model.js'
import { buildModel } from '../../generator/model/build-model.js'

export interface ShopOptions {
  /** authors.email is `unique` (409 on writes). */
  readonly unique?: boolean
  /** Deleting an order with items (or an author with posts...) is refused (409) rather than cascading. */
  readonly restrict?: boolean
  readonly baseUrl?: string | null
  /** One more, field-less resource. */
  readonly extraResource?: string
  /** The top-level `cache:` (service-wide default max_age). */
  readonly serviceMaxAge?: number
  /** Limits over `per_page_default: 10, per_page_max: 50`. */
  readonly limits?: Manifest['limits']
  /** Whether resources keep their `include:` whitelists. */
  readonly includes?: boolean
  /** posts.comments' own `max_items`. */
  readonly commentsMaxItems?: number
}

/**
 * The issue #2 example shop, plus posts, categories, comments nested under
 * posts, and adjustments → items → orders: a three-level parent chain that
 * must be flattened. Relations as in issue #3: posts belong to an author and
 * a (required) category and have many comments (via the parent key); authors
 * have many posts; orders have many items, which belong to a product.
 */
export function buildShopModel(options: ShopOptions = {}): ApiModel {
  const { unique = true, restrict = true, baseUrl = 'http://localhost:3000', extraResource, serviceMaxAge } = options
  const include = (paths: string[]): { include?: string[] } => (options.includes === false ? {} : { include: paths })
  const onDelete = { on_delete: restrict ? ('restrict' as const) : ('cascade' as const) }
  const manifest: Manifest = {
    restmint: 1,
    service: { title: 'Shop API', description: 'Example shop', ...(baseUrl ? { base_url: baseUrl } : {}) },
    limits: { per_page_default: 10, per_page_max: 50, ...options.limits },
    versions: { v1: {} },
    resources: {
      authors: {
        fields: {
          name: { type: 'string', required: true, max_length: 200 },
          email: { type: 'string', format: 'email', unique },
        },
        relations: { posts: { resource: 'posts', many: true } },
        ...include(['posts']),
      },
      products: {
        fields: {
          title: { type: 'string', required: true },
          price: { type: 'number', required: true, minimum: 0 },
          in_stock: { type: 'boolean', default: true },
        },
      },
      orders: {
        fields: {
          status: { type: 'string', enum: ['pending', 'paid', 'shipped'], default: 'pending' },
          placed_on: { type: 'date' },
        },
        relations: { items: { resource: 'items', many: true } },
        ...include(['items', 'items.product']),
        cache: { max_age: 60 },
      },
      items: {
        parent: 'orders',
        ...(restrict ? {} : { on_delete: 'cascade' as const }),
        fields: {
          quantity: { type: 'integer', required: true, minimum: 1 },
          note: { type: 'string', nullable: true },
        },
        relations: { product: { resource: 'products', ...onDelete } },
      },
      posts: {
        fields: {
          title: { type: 'string', required: true, min_length: 1 },
          slug: { type: 'string', pattern: '^[a-z0-9-]+$' },
          published_at: { type: 'datetime', nullable: true },
          status: { type: 'string', enum: ['draft', 'published'], nullable: true },
        },
        relations: {
          author: { resource: 'authors', ...onDelete },
          category: { resource: 'categories', required: true, ...onDelete },
          comments: {
            resource: 'comments',
            many: true,
            ...(options.commentsMaxItems === undefined ? {} : { max_items: options.commentsMaxItems }),
          },
        },
        ...include(['author', 'category', 'comments']),
        sort: ['created_at', 'title'],
        filter: { status: ['eq', 'in'], published_at: ['gte', 'lte', 'null'], author_id: ['eq'], title: ['contains'] },
      },
      categories: {
        fields: { name: { type: 'string', required: true }, website: { type: 'string', format: 'uri' } },
      },
      comments: {
        parent: 'posts',
        on_delete: 'cascade',
        fields: { body: { type: 'string', required: true }, token: { type: 'string', format: 'uuid' } },
      },
      adjustments: {
        parent: 'items',
        on_delete: 'cascade',
        fields: { amount: { type: 'number', required: true }, rating: { type: 'integer', enum: [1, 2, 3] } },
      },
      ...(extraResource ? { [extraResource]: {} } : {}),
    },
    ...(serviceMaxAge === undefined ? {} : { cache: { max_age: serviceMaxAge } }),
  }
  return buildModel(manifest, 'resources.yaml')
}
