/**
 * What the OpenAPI document says about serving (issue 10, "OpenAPI"):
 * conditional requests, a required If-Match, and rate limits, read from the
 * serving fixture's committed openapi.json.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileErrors, validate } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'
import { compareContracts } from '../../generator/contract/compare-contracts.js'
import type { OpenApiDocument, OpenApiMethod, OpenApiResponse } from '../../generator/render/openapi-objects.js'

const document = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/serving-api/generated/v1/openapi.json'), 'utf8'),
) as OpenApiDocument & { components: { parameters: Record<string, unknown> } }

const METHODS: readonly OpenApiMethod[] = ['get', 'post', 'put', 'patch', 'delete']

describe('OpenAPI document of a served API', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(JSON.parse(JSON.stringify(document)))
    expect(result.valid ? '' : compileErrors(result)).toBe('')
  })

  it('requires If-Match, and documents 412 and 428, where the manifest requires it', () => {
    for (const method of ['put', 'patch', 'delete'] as const) {
      const notes = document.paths['/v1/notes/{id}']![method]!
      expect(notes.parameters).toContainEqual(
        expect.objectContaining({ name: 'If-Match', in: 'header', required: true }),
      )
      expect(Object.keys(notes.responses)).toEqual(expect.arrayContaining(['412', '428']))
      const tags = document.paths['/v1/tags/{id}']![method]!
      const ifMatch = tags.parameters!.find((parameter) => parameter.name === 'If-Match')!
      expect(ifMatch.required).toBeUndefined()
      expect(Object.keys(tags.responses)).toContain('412')
      expect(Object.keys(tags.responses)).not.toContain('428')
    }
    expect(document.components.responses.PreconditionRequired!.content).toHaveProperty(['application/problem+json'])
    expect(document.components.responses.PreconditionFailed!.headers).toEqual({
      ETag: { $ref: '#/components/headers/ETag' },
      RateLimit: { $ref: '#/components/headers/RateLimit' },
      'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
    })
  })

  it('documents 429 with Retry-After on every operation, and the RateLimit headers on every response', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method]
        if (!operation) continue
        expect(operation.responses['429'], `${method} ${path}`).toEqual({
          $ref: '#/components/responses/TooManyRequests',
        })
        for (const response of Object.values(operation.responses)) {
          if ('$ref' in response) continue
          expect(Object.keys(response.headers ?? {}), `${method} ${path}`).toEqual(
            expect.arrayContaining(['RateLimit', 'RateLimit-Policy']),
          )
        }
      }
    }
    const tooMany = document.components.responses.TooManyRequests as OpenApiResponse
    expect(Object.keys(tooMany.headers!)).toEqual(['Retry-After', 'RateLimit', 'RateLimit-Policy'])
    expect(document.info.description).toContain('1000 requests per 60 s per client')
    expect(document.info.description).toContain('tags: 3 per 60 s')
  })

  it('says responses vary by Origin when CORS is on', () => {
    expect(document.components.headers.Vary!.schema).toEqual({ type: 'string', enum: ['Origin, Accept'] })
  })

  it('makes a newly required If-Match a breaking contract change, and a changed rate limit none', () => {
    const optional = structuredClone(document) as unknown as {
      paths: Record<string, Record<string, { parameters?: { name: string; required?: boolean }[] }>>
      info: { description: string }
    }
    for (const method of ['put', 'patch', 'delete']) {
      for (const parameter of optional.paths['/v1/notes/{id}']![method]!.parameters ?? []) delete parameter.required
    }
    const findings = compareContracts(optional, document)
    expect(findings.map((finding) => [finding.rule, finding.severity, finding.operation, finding.subject])).toEqual([
      ['REQUEST_PARAMETER_BECAME_REQUIRED', 'breaking', 'PUT /v1/notes/{id}', 'header If-Match'],
      ['REQUEST_PARAMETER_BECAME_REQUIRED', 'breaking', 'DELETE /v1/notes/{id}', 'header If-Match'],
      ['REQUEST_PARAMETER_BECAME_REQUIRED', 'breaking', 'PATCH /v1/notes/{id}', 'header If-Match'],
    ])
    const slower = JSON.parse(JSON.stringify(document).replace('1000 requests per 60 s', '10 requests per 60 s'))
    expect(slower.info.description).toContain('10 requests per 60 s')
    expect(compareContracts(document, slower)).toEqual([])
  })
})
