import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileErrors, validate } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'

/**
 * The OpenAPI document of a soft-deleting resource (issue 17,
 * test/fixtures/soft-delete-api): `deleted_at` in its record, `?deleted=` on
 * its list and read, the restorations path, secured by the `deleted` rule.
 */
const document = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/soft-delete-api/generated/v1/openapi.json'), 'utf8'),
)

describe('OpenAPI of soft delete', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(JSON.parse(JSON.stringify(document)))
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true)
  })

  it('documents deleted_at, ?deleted= on list and read, and POST /posts/{id}/restorations', () => {
    expect(document.components.schemas.Post.properties.deleted_at).toEqual({
      type: ['string', 'null'],
      format: 'date-time',
      readOnly: true,
    })
    expect(document.components.schemas.Author.properties.deleted_at).toBeUndefined()
    const deleted = { $ref: '#/components/parameters/deleted' }
    expect(document.paths['/v1/posts'].get.parameters).toContainEqual(deleted)
    expect(document.paths['/v1/posts/{id}'].get.parameters).toContainEqual(deleted)
    expect(document.components.parameters.deleted.schema).toEqual({ type: 'string', enum: ['include', 'only'] })
    expect(document.paths['/v1/authors'].get.parameters).not.toContainEqual(deleted)
    const restore = document.paths['/v1/posts/{id}/restorations'].post
    expect(restore.operationId).toBe('restorePost')
    expect(Object.keys(restore.responses)).toEqual(['200', '400', '401', '403', '404', '409'])
    expect(restore.security).toEqual([{ user: ['posts:admin'] }])
    expect(document.paths['/v1/posts/{post_id}/comments/{comment_id}/restorations']).toBeUndefined()
    expect(document.paths['/v1/posts/{id}'].delete.description).toMatch(
      /^Soft-deletes post `\{id\}`: stamps `deleted_at`/,
    )
    expect(document.paths['/v1/authors/{id}'].delete.description).toContain(
      'The posts referencing it stay, their reference set to null.',
    )
  })
})
