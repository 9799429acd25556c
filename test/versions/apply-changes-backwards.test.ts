import { describe, expect, it } from 'vitest'
import type { Manifest, ManifestResource } from '../../generator/manifest/manifest.js'
import { applyChangesBackwards } from '../../generator/versions/apply-changes-backwards.js'
import { deriveVersions } from '../../generator/versions/derive-versions.js'
import type { VersionChange } from '../../generator/versions/version-change.js'

type Resources = Record<string, ManifestResource>

interface Case {
  readonly name: string
  readonly newer: Resources
  readonly changes: readonly VersionChange[]
  readonly older: Resources
  /** Origins as `path → change index`. */
  readonly origins?: Readonly<Record<string, number>>
}

const why = 'because'

const CASES: readonly Case[] = [
  {
    name: 'rename_field: the field takes its old name in place, in sort and filter too',
    newer: {
      posts: {
        fields: { title: { type: 'string' }, content: { type: 'string' }, rank: { type: 'integer' } },
        sort: ['content', 'rank'],
        filter: { content: ['eq'], rank: ['gte'] },
      },
    },
    changes: [{ kind: 'rename_field', resource: 'posts', from: 'body', to: 'content', why }],
    older: {
      posts: {
        fields: { title: { type: 'string' }, body: { type: 'string' }, rank: { type: 'integer' } },
        sort: ['body', 'rank'],
        filter: { body: ['eq'], rank: ['gte'] },
      },
    },
    origins: { 'resources/posts/fields/body': 0, 'resources/posts': 0 },
  },
  {
    name: 'remove_field: the field comes back as it was',
    newer: { posts: { fields: { title: { type: 'string' } } } },
    changes: [
      {
        kind: 'remove_field',
        resource: 'posts',
        field: 'price',
        was: { type: 'number', nullable: true },
        filter: null,
        sort: false,
        why,
      },
    ],
    older: { posts: { fields: { title: { type: 'string' }, price: { type: 'number', nullable: true } } } },
    origins: { 'resources/posts/fields/price': 0, 'resources/posts': 0 },
  },
  {
    name: 'add_field: the field, and the sort and filter entries naming it, are gone',
    newer: {
      orders: {
        fields: { total: { type: 'number' }, currency: { type: 'string', required: true } },
        sort: ['currency', 'total'],
        filter: { currency: ['eq'] },
      },
    },
    changes: [{ kind: 'add_field', resource: 'orders', field: 'currency', olderValue: 'EUR', why }],
    older: { orders: { fields: { total: { type: 'number' } }, sort: ['total'], filter: {} } },
    origins: { 'resources/orders': 0 },
  },
  {
    name: 'rename_resource: the resource, parents, relations named after it, their keys, vias and include paths',
    newer: {
      writers: { singular: 'writer', fields: { name: { type: 'string' } } },
      posts: {
        relations: {
          writer: { resource: 'writers', required: true },
          editor: { resource: 'writers' },
          comments: { resource: 'comments', many: true, via: 'post' },
        },
        include: ['writer', 'editor', 'comments', 'comments.post'],
        sort: ['writer_id', 'editor_id'],
        filter: { writer_id: ['eq'] },
      },
      profiles: { parent: 'writers', sort: ['writer_id'] },
      comments: {
        relations: { post: { resource: 'posts' } },
        include: ['post', 'post.writer'],
      },
      teams: {
        relations: { writers: { resource: 'writers', many: true, via: 'team' } },
        include: ['writers'],
      },
    },
    changes: [{ kind: 'rename_resource', from: 'authors', to: 'writers', why }],
    older: {
      authors: { fields: { name: { type: 'string' } } },
      posts: {
        relations: {
          author: { resource: 'authors', required: true },
          editor: { resource: 'authors' },
          comments: { resource: 'comments', many: true, via: 'post' },
        },
        include: ['author', 'editor', 'comments', 'comments.post'],
        sort: ['author_id', 'editor_id'],
        filter: { author_id: ['eq'] },
      },
      profiles: { parent: 'authors', sort: ['author_id'] },
      comments: {
        relations: { post: { resource: 'posts' } },
        include: ['post', 'post.author'],
      },
      teams: {
        relations: { authors: { resource: 'authors', many: true, via: 'team' } },
        include: ['authors'],
      },
    },
    origins: { 'resources/authors': 0 },
  },
  {
    name: 'rename_resource: has-manys over a child follow its renamed parent key',
    newer: {
      writers: { relations: { notes: { resource: 'notes', many: true, via: 'writer_id' } } },
      notes: { parent: 'writers' },
    },
    changes: [{ kind: 'rename_resource', from: 'authors', to: 'writers', why }],
    older: {
      authors: { relations: { notes: { resource: 'notes', many: true, via: 'author_id' } } },
      notes: { parent: 'authors' },
    },
  },
  {
    name: 'reroot_resource: nested again, the belongs-to holding the parent key gives way to the parent',
    newer: {
      posts: {
        relations: { comments: { resource: 'comments', many: true, via: 'post' } },
        include: ['comments'],
      },
      comments: {
        fields: { text: { type: 'string' } },
        relations: { post: { resource: 'posts', required: true, on_delete: 'cascade' } },
        include: ['post'],
      },
    },
    changes: [{ kind: 'reroot_resource', resource: 'comments', fromParent: 'posts', why }],
    older: {
      posts: {
        relations: { comments: { resource: 'comments', many: true, via: 'post_id' } },
        include: ['comments'],
      },
      comments: {
        fields: { text: { type: 'string' } },
        relations: {},
        include: [],
        on_delete: 'cascade',
        parent: 'posts',
      },
    },
    origins: { 'resources/comments': 0 },
  },
  {
    name: 'remove_resource: the resource comes back as it was, last',
    newer: { posts: {} },
    changes: [{ kind: 'remove_resource', resource: 'coupons', was: { fields: { code: { type: 'string' } } }, why }],
    older: { posts: {}, coupons: { fields: { code: { type: 'string' } } } },
    origins: { 'resources/coupons': 0 },
  },
  {
    name: 'combined: changes name the newer version, from_parent and was the older one',
    newer: {
      writers: { fields: { handle: { type: 'string' } } },
      articles: { relations: { writer: { resource: 'writers' } } },
      replies: { relations: { article: { resource: 'articles', required: true } } },
    },
    changes: [
      { kind: 'reroot_resource', resource: 'replies', fromParent: 'posts', why },
      { kind: 'rename_field', resource: 'writers', from: 'nick', to: 'handle', why },
      { kind: 'rename_resource', from: 'authors', to: 'writers', why },
      { kind: 'rename_resource', from: 'posts', to: 'articles', why },
      { kind: 'remove_resource', resource: 'drafts', was: { relations: { author: { resource: 'authors' } } }, why },
    ],
    older: {
      authors: { fields: { nick: { type: 'string' } } },
      posts: { relations: { author: { resource: 'authors' } } },
      replies: { relations: {}, parent: 'posts' },
      drafts: { relations: { author: { resource: 'authors' } } },
    },
    origins: {
      'resources/authors/fields/nick': 1,
      'resources/authors': 2,
      'resources/posts': 3,
      'resources/replies': 0,
      'resources/drafts': 4,
    },
  },
  {
    name: 'a change whose target is missing is skipped (validation reports it)',
    newer: { posts: { fields: { title: { type: 'string' } } } },
    changes: [
      { kind: 'rename_field', resource: 'posts', from: 'a', to: 'missing', why },
      { kind: 'add_field', resource: 'ghosts', field: 'x', olderValue: null, why },
      { kind: 'rename_resource', from: 'a', to: 'missing', why },
    ],
    older: { posts: { fields: { title: { type: 'string' } } } },
    origins: {},
  },
]

describe('applyChangesBackwards', () => {
  it.each(CASES)('$name', ({ newer, changes, older, origins }) => {
    const before = structuredClone(newer)
    const derived = applyChangesBackwards(newer, changes)
    expect(derived.resources).toEqual(older)
    // Key order is what the older version's documents list first.
    expect(Object.keys(derived.resources)).toEqual(Object.keys(older))
    if (origins) expect(Object.fromEntries(derived.origins)).toEqual(origins)
    expect(newer, 'the newer resources are left as they were').toEqual(before)
  })
})

describe('deriveVersions', () => {
  it('derives each version from the next newer one, oldest first, whatever the manifest order', () => {
    const manifest: Manifest = {
      restmint: 1,
      service: { title: 'T' },
      versions: {
        v10: { changes: [{ rename_field: { resource: 'posts', from: 'text', to: 'content' }, why }] },
        v1: {},
        v2: { changes: [{ rename_field: { resource: 'posts', from: 'body', to: 'text' }, why }] },
      },
      resources: { posts: { fields: { content: { type: 'string' } } } },
    }
    const { versions } = deriveVersions(manifest)
    expect(versions.map(({ name, derivedFrom }) => [name, derivedFrom])).toEqual([
      ['v1', 'v2'],
      ['v2', 'v10'],
      ['v10', null],
    ])
    expect(versions.map((version) => Object.keys(version.resources.posts!.fields!))).toEqual([
      ['body'],
      ['text'],
      ['content'],
    ])
    expect(versions[2]!.resources).toBe(manifest.resources)
    expect(versions[1]!.changes).toEqual([{ kind: 'rename_field', resource: 'posts', from: 'body', to: 'text', why }])
  })
})
