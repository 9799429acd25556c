import { readFileSync } from 'node:fs'
import { compileErrors, validate } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'

/**
 * Issue 17: the aggregates routes in the OpenAPI document of
 * test/fixtures/aggregates-api: a valid document, each path with its
 * parameters, and the groups' schema as a component.
 */
const documentOf = (version: string) =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/aggregates-api/generated/${version}/openapi.json`, import.meta.url), 'utf8'),
  ) as {
    paths: Record<string, { get: { operationId: string; parameters: { name: string; schema: unknown }[] } }>
    components: { schemas: Record<string, { properties: Record<string, any> }> }
  }

describe('aggregates in the OpenAPI document', () => {
  const v2 = documentOf('v2')

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(JSON.parse(JSON.stringify(v2)))
    expect(result.valid ? '' : compileErrors(result)).toBe('')
  })

  it('documents the top-level and nested aggregates paths with their own parameters', () => {
    const top = v2.paths['/v2/posts/aggregates']!.get
    const nested = v2.paths['/v2/authors/{author_id}/posts/aggregates']!.get
    expect([top.operationId, nested.operationId]).toEqual(['aggregatePosts', 'aggregateAuthor_Posts'])
    expect(top.parameters.map((parameter) => parameter.name)).toEqual([
      'group_by',
      'aggregate[views]',
      'aggregate[rating]',
      'aggregate[title]',
      'per_page',
      'cursor',
      'status',
      'filter[status][eq]',
      'filter[status][in]',
      'filter[views][gte]',
    ])
    const perPage = top.parameters.find((parameter) => parameter.name === 'per_page')!
    expect(perPage.schema).toEqual({ type: 'integer', minimum: 1, maximum: 5, default: 5 })
    expect(v2.paths['/v2/notes/aggregates']).toBeDefined()
    expect(v2.paths['/v2/authors/aggregates']).toBeUndefined()
  })

  it('describes a group: grouping values, count, exact integer sums as strings', () => {
    const group = v2.components.schemas.PostAggregatePage!.properties.data.items
    expect(Object.keys(group.properties)).toEqual([
      'status',
      'author_id',
      'published_on',
      'count',
      'views',
      'rating',
      'title',
    ])
    expect(group.properties.views.properties.sum.type).toEqual(['string', 'null'])
    expect(group.properties.views.properties.avg.type).toEqual(['number', 'null'])
    expect(group.properties.rating.properties.sum.type).toEqual(['number', 'null'])
    expect(group.properties.title.properties.max.type).toEqual(['string', 'null'])
  })

  it('names fields as the version does: v1 aggregates score', () => {
    const v1 = documentOf('v1')
    const names = v1.paths['/v1/posts/aggregates']!.get.parameters.map((parameter) => parameter.name)
    expect(names).toContain('aggregate[score]')
    expect(names).not.toContain('aggregate[rating]')
  })
})
