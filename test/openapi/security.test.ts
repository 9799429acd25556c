import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileErrors, validate } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'

/** Issue 10: the auth fixture's document declares who may call each operation (test/fixtures/auth-api). */
const document = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/auth-api/generated/v1/openapi.json'), 'utf8'),
) as {
  components: { securitySchemes: Record<string, unknown>; responses: Record<string, unknown> }
  paths: Record<
    string,
    Record<string, { security?: unknown; responses: Record<string, unknown>; [key: string]: unknown }>
  >
}
const post = document.paths['/v1/posts/{id}']!

describe('OpenAPI security', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(JSON.parse(JSON.stringify(document)))
    expect(result.valid ? '' : compileErrors(result)).toBe('')
  })

  it('declares a security scheme per auth scheme', () => {
    expect(document.components.securitySchemes).toEqual({
      user: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      partner: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      machine: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    })
  })

  it('marks public operations `security: []`, still answering 401 to bad credentials', () => {
    expect(post.get!.security).toEqual([])
    expect(post.get!.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' })
    expect(post.get!.responses['403']).toBeUndefined()
  })

  it('lists the requirements of a rule, any of which suffices, with 401, 403 and the owner rule', () => {
    expect(document.paths['/v1/posts']!.post!.security).toEqual([
      { user: ['posts:write'] },
      { partner: ['posts:write'] },
      { machine: ['posts:write'] },
    ])
    expect(post.patch!.security).toEqual(expect.arrayContaining([{ user: [] }, { user: ['posts:admin'] }]))
    expect(post.patch!.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden' })
    expect(post.patch!['x-restmint-access']).toEqual({
      rules: ['owner', { scopes: ['posts:admin'] }],
      owner: { field: 'owner_sub', claim: 'sub', scheme: 'user' },
    })
    expect(document.paths['/v1/tags']!.post!.security).toEqual([{ machine: ['tags:write'] }])
  })
})
