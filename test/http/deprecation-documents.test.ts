import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileErrors, validate } from '@readme/openapi-parser'
import { Document, Spectral, type RulesetDefinition } from '@stoplight/spectral-core'
import { Json } from '@stoplight/spectral-parsers'
import { oas } from '@stoplight/spectral-rulesets'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/versioned-api/generated/server.js'

/**
 * Issue 9: the deprecated v1's OpenAPI document (test/fixtures/versioned-api)
 * marks every operation deprecated and documents the headers and `meta` its
 * responses carry, stays valid and lint-clean, and matches what the server
 * answers; /docs lets the reader choose the version.
 */
const generated = join(import.meta.dirname, '../fixtures/versioned-api/generated')
const read = (version: string) => JSON.parse(readFileSync(join(generated, version, 'openapi.json'), 'utf8'))
const v1 = read('v1')
const v2 = read('v2')

function operations(document: { paths: Record<string, Record<string, { deprecated?: boolean }>> }) {
  return Object.values(document.paths).flatMap((item) =>
    ['get', 'post', 'put', 'patch', 'delete'].flatMap((method) => (item[method] ? [item[method]] : [])),
  )
}

async function lint(document: object): Promise<string[]> {
  const spectral = new Spectral()
  spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] })
  const results = await spectral.run(new Document(JSON.stringify(document, null, 2), Json))
  const severities = ['error', 'warning', 'info', 'hint']
  return results.map((result) => `${severities[result.severity]} ${result.code} at ${result.path.join('.')}`)
}

describe('OpenAPI document of a deprecated version', () => {
  it('marks every v1 operation deprecated, and no v2 operation', () => {
    expect(operations(v1).length).toBeGreaterThan(0)
    expect(operations(v1).every((operation) => operation.deprecated === true)).toBe(true)
    expect(operations(v2).some((operation) => 'deprecated' in operation)).toBe(false)
  })

  it('documents the headers on every response, and the guide in the description', () => {
    expect(Object.keys(v1.components.headers)).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']))
    const responses = [
      ...Object.values(v1.components.responses),
      ...operations(v1).flatMap((operation) =>
        Object.values((operation as { responses: Record<string, { $ref?: string }> }).responses),
      ),
    ].filter((response) => !(response as { $ref?: string }).$ref) as { headers?: Record<string, unknown> }[]
    for (const response of responses) {
      expect(Object.keys(response.headers ?? {})).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']))
    }
    expect(v1.info.description).toContain('[migration guide](/docs/migrate-v1-to-v2)')
    expect(v2.components.headers.Deprecation).toBeUndefined()
  })

  it('is valid OpenAPI 3.1 and lints like the current version', async () => {
    const result = await validate(structuredClone(v1))
    expect(result.valid ? '' : compileErrors(result)).toBe('')
    const found = await lint(v1)
    expect(found.filter((line) => line.startsWith('error'))).toEqual([])
    expect(found).toEqual(await lint(v2))
  })
})

describe('deprecated version: live answers and /docs', () => {
  let app: FastifyInstance
  const DOCUMENT_ID = 'https://restmint.test/v1.json'
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema({ ...v1, $id: DOCUMENT_ID })
  const schemaOf = (pointer: string) => ajv.getSchema(`${DOCUMENT_ID}#${pointer}`)!

  beforeAll(async () => {
    app = await buildServer()
  })
  afterAll(async () => {
    await app?.close()
  })

  it('answers bodies the document allows: a record with meta, a page, a problem with meta', async () => {
    const created = await app.inject({ method: 'POST', url: '/v1/posts', payload: { title: 'Hello' } })
    const checks: [unknown, string][] = [
      [created.json(), '/paths/~1v1~1posts/post/responses/201/content/application~1json/schema'],
      [
        (await app.inject({ method: 'GET', url: `/v1/posts/${created.json().data.id}` })).json(),
        '/paths/~1v1~1posts~1{id}/get/responses/200/content/application~1json/schema',
      ],
      [(await app.inject({ method: 'GET', url: '/v1/posts' })).json(), '/components/schemas/PostPage'],
      [(await app.inject({ method: 'GET', url: '/v1/posts/99' })).json(), '/components/schemas/Problem'],
    ]
    for (const [body, pointer] of checks) {
      const check = schemaOf(pointer)
      expect(check(body) ? [] : check.errors, pointer).toEqual([])
      expect((body as { meta: unknown }).meta).toMatchObject({ deprecated: true, sunset: '2027-07-15' })
    }
  })

  it('serves each version at /docs/<version>/openapi.json and lists them in the page, v2 first shown', async () => {
    for (const [version, document] of [
      ['v1', v1],
      ['v2', v2],
    ] as const) {
      const response = await app.inject({ method: 'GET', url: `/docs/${version}/openapi.json` })
      expect(response.statusCode).toBe(200)
      expect(response.json().paths).toEqual(document.paths)
      expect(response.json().servers[0]).toEqual({ url: '/', description: 'This server' })
    }
    expect((await app.inject({ method: 'GET', url: '/docs/json' })).json().info.version).toBe('v2')
    const initializer = await app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' })
    expect(initializer.body).toContain('"urls":[{"url":"/docs/v1/openapi.json","name":"v1 (deprecated)"}')
    expect(initializer.body).toContain('{"url":"/docs/v2/openapi.json","name":"v2"}],"urls.primaryName":"v2"')
  })

  it('serves the migration guide the deprecation link names, as HTML, and links it from the v2 document', async () => {
    const link = (await app.inject({ method: 'GET', url: '/v1/posts' })).headers.link as string
    const guide = /^<([^>]+)>; rel="deprecation"; type="text\/html"/.exec(link)?.[1]
    expect(guide).toBe('/docs/migrate-v1-to-v2')
    const page = await app.inject({ method: 'GET', url: guide! })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.body).toContain('<h1>Migrating from v1 to v2</h1>')
    expect(page.body).toContain(
      '<tr><td>field</td><td><code>comments.body</code></td><td><code>comments.content</code></td></tr>',
    )
    expect(page.body).toContain('Why: content is the name used everywhere else')
    expect(v2.info.description).toContain('[migration guide](/docs/migrate-v1-to-v2)')
    expect((await app.inject({ method: 'GET', url: '/docs/migrate-v2-to-v3' })).statusCode).toBe(404)
  })
})
