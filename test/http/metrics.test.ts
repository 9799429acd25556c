import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/versioned-api/generated/server.js'
import { allTables } from '../fixtures/versioned-api/generated/schema.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

/**
 * Issue 9, traffic per version: `GET /metrics` counts requests by version,
 * route pattern and status, in Prometheus text format, per server.
 */
for (const dialect of DIALECTS) {
  describe(`${dialect}: request metrics`, () => {
    let app: FastifyInstance
    let other: FastifyInstance
    let storage: TestStorage

    beforeAll(async () => {
      storage = await openTestStorage(dialect, allTables)
      app = await buildServer({ storage: storage.storage, docs: false })
      other = await buildServer({ storage: storage.storage, docs: false })
    })
    afterAll(async () => {
      await app?.close()
      await other?.close()
      await storage?.dispose()
    })

    /** The counter's samples, as `labels → value`. */
    const scrape = async (server: FastifyInstance): Promise<Map<string, number>> => {
      const response = await server.inject({ method: 'GET', url: '/metrics' })
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
      expect(response.body).toContain('# TYPE restmint_http_requests_total counter')
      const samples = [...response.body.matchAll(/^restmint_http_requests_total\{(.*)\} (\d+)$/gm)]
      return new Map(samples.map(([, labels, value]) => [labels!, Number(value)]))
    }

    it('counts by version, route pattern (never the URL) and status; unknown paths as unmatched', async () => {
      for (const url of [
        '/v1/posts',
        '/v1/posts',
        '/v2/posts',
        '/v1/posts/1',
        '/v1/posts/2',
        '/v1/nowhere/7',
        '/nowhere',
      ])
        await app.inject({ method: 'GET', url })
      await app.inject({ method: 'POST', url: '/v2/posts', payload: { title: 'New' } })
      const samples = await scrape(app)
      expect(samples.get('version="v1",route="/v1/posts",status="200"')).toBe(2)
      expect(samples.get('version="v2",route="/v2/posts",status="200"')).toBe(1)
      expect(samples.get('version="v2",route="/v2/posts",status="201"')).toBe(1)
      expect(samples.get('version="v1",route="/v1/posts/:id",status="404"')).toBe(2)
      expect(samples.get('version="v1",route="unmatched",status="404"')).toBe(1)
      expect(samples.get('version="none",route="unmatched",status="404"')).toBe(1)
      expect([...samples.keys()].some((labels) => labels.includes('/v1/posts/1'))).toBe(false)
    })

    it('keeps a registry per server: another server in the process counts its own requests', async () => {
      await other.inject({ method: 'GET', url: '/v2/posts' })
      const samples = await scrape(other)
      expect(samples.get('version="v2",route="/v2/posts",status="200"')).toBe(1)
      expect(samples.has('version="v1",route="/v1/posts",status="200"')).toBe(false)
    })
  })
}

describe('request metrics turned off', () => {
  it('serves no /metrics with metrics: false', async () => {
    const app = await buildServer({ docs: false, metrics: false })
    try {
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404)
    } finally {
      await app.close()
    }
  })
})
