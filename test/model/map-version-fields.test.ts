import { describe, expect, it } from 'vitest'
import type { Manifest } from '../../generator/manifest/manifest.js'
import { buildModel } from '../../generator/model/build-model.js'
import { mapVersionFields } from '../../generator/model/map-version-fields.js'

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

describe('mapVersionFields', () => {
  const model = buildModel(
    threeVersions([
      { rename_field: { resource: 'posts', from: 'text', to: 'content' }, why },
      { add_field: { resource: 'posts', field: 'lang', older_value: 'en' }, why },
    ]),
    'resources.yaml',
  )
  const [v1, v2, v3] = model.versions

  it('composes the changes of every newer version, newest first', () => {
    const posts = mapVersionFields(model, v1!)!.get('posts')!
    expect(Object.fromEntries(posts.columns)).toEqual({
      id: 'id',
      body: 'content',
      created_at: 'created_at',
      updated_at: 'updated_at',
    })
    expect(Object.fromEntries(posts.olderValues)).toEqual({ lang: 'en' })
    expect(mapVersionFields(model, v2!)!.get('posts')!.columns.get('text')).toBe('content')
  })

  it('maps the newest version onto itself', () => {
    const posts = mapVersionFields(model, v3!)!.get('posts')!
    expect([...posts.columns].every(([field, column]) => field === column)).toBe(true)
    expect(posts.olderValues.size).toBe(0)
  })

  it('serves no version behind a change it cannot translate yet', () => {
    const removing = buildModel(
      threeVersions([
        { rename_field: { resource: 'posts', from: 'text', to: 'content' }, why },
        { add_field: { resource: 'posts', field: 'lang', older_value: 'en' }, why },
        { remove_field: { resource: 'posts', field: 'price', was: { type: 'number' } }, why },
      ]),
      'resources.yaml',
    )
    expect(mapVersionFields(removing, removing.versions[0]!)).toBeNull()
    expect(mapVersionFields(removing, removing.versions[1]!)).toBeNull()
    expect(mapVersionFields(removing, removing.versions[2]!)).not.toBeNull()
  })
})
