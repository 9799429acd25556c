import { describe, expect, it } from 'vitest'
import type { Manifest } from '../../generator/manifest/manifest.js'
import { buildModel } from '../../generator/model/build-model.js'
import { isIdentityMapping } from '../../generator/model/map-version-storage.js'

const why = 'because'

/** A three-version API whose posts field `body` became `text` in v2 and `content` in v3, which also added `lang`. */
function threeVersions(v3Changes: NonNullable<Manifest['versions'][string]['changes']>): Manifest {
  return {
    restmint: 1,
    service: { title: 'Chain' },
    versions: {
      v1: {},
      v2: { changes: [{ rename_field: { resource: 'posts', from: 'body', to: 'text' }, why }] },
      v3: { changes: v3Changes },
    },
    resources: {
      posts: { fields: { content: { type: 'string' }, lang: { type: 'string', required: true } } },
    },
  } as Manifest
}

describe('mapVersionStorage (VersionModel.storage)', () => {
  const model = buildModel(
    threeVersions([
      { rename_field: { resource: 'posts', from: 'text', to: 'content' }, why },
      { add_field: { resource: 'posts', field: 'lang', older_value: 'en' }, why },
    ]),
    'resources.yaml',
  )
  const [v1, v2, v3] = model.versions

  it('composes the changes of every newer version, newest first', () => {
    const posts = v1!.storage!.get('posts')!
    expect(Object.fromEntries(posts.columns)).toEqual({
      id: 'id',
      body: 'content',
      created_at: 'created_at',
      updated_at: 'updated_at',
    })
    expect(Object.fromEntries(posts.olderValues)).toEqual({ lang: 'en' })
    expect(v2!.storage!.get('posts')!.columns.get('text')).toBe('content')
  })

  it('maps the newest version onto itself', () => {
    const posts = v3!.storage!.get('posts')!
    expect([...posts.columns].every(([field, column]) => field === column)).toBe(true)
    expect(posts.olderValues.size).toBe(0)
  })

  it('keeps a field removed in v3 as a column v1 and v2 reach and v3 does not', () => {
    const removing = buildModel(
      threeVersions([
        { rename_field: { resource: 'posts', from: 'text', to: 'content' }, why },
        { add_field: { resource: 'posts', field: 'lang', older_value: 'en' }, why },
        { remove_field: { resource: 'posts', field: 'price', was: { type: 'number', required: true } }, why },
      ]),
      'resources.yaml',
    )
    const [first, second, third] = removing.versions
    const price = removing.resources[0]!.fields.find((field) => field.name === 'price')
    expect(price).toMatchObject({ required: false, storedNullable: true })
    expect(first!.storage!.get('posts')!.columns.get('price')).toBe('price')
    expect(second!.storage!.get('posts')!.columns.get('price')).toBe('price')
    const newest = third!.storage!
    expect(newest.get('posts')!.columns.has('price')).toBe(false)
    expect(isIdentityMapping(newest, third!)).toBe(false)
  })

  it('maps a renamed resource, its keys and the relations named after it to the storage names', () => {
    const renamed = buildModel(
      {
        restmint: 1,
        service: { title: 'Renamed' },
        versions: { v1: {}, v2: { changes: [{ rename_resource: { from: 'authors', to: 'writers' }, why }] } },
        resources: {
          writers: { fields: { name: { type: 'string' } } },
          books: { relations: { writer: { resource: 'writers' } }, fields: { title: { type: 'string' } } },
          letters: { parent: 'writers', fields: { text: { type: 'string' } } },
        },
      } as Manifest,
      'resources.yaml',
    )
    const v1 = renamed.versions[0]!.storage!
    expect(v1.get('books')!.columns.get('author_id')).toBe('writer_id')
    expect(Object.fromEntries(v1.get('books')!.relations)).toEqual({ author: 'writer' })
    expect(v1.get('letters')!.columns.get('author_id')).toBe('writer_id')
    expect(v1.get('authors')!.storage.name).toBe('writers')
  })
})
