import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer } from '../fixtures/shop-api/generated/server.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'

interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** Sends `request` as bytes over a fresh connection and reads the answer until the server closes it. */
function exchange(port: number, request: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request))
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', body = ''] = text.split('\r\n\r\n', 2)
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      )
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body })
    })
  })
}

const request = (line: string, headers: string[] = [], body = ''): string =>
  [line, 'Host: 127.0.0.1', 'Connection: close', ...headers].join('\r\n') + '\r\n\r\n' + body

function expectProblem(response: RawResponse, status: number, code: string): Record<string, unknown> {
  expect(response.status).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
  const problem = JSON.parse(response.body) as Record<string, unknown>
  expect(problem).toMatchObject({ status, code, type: `https://restmint.dev/problems/${code.replaceAll('_', '-')}` })
  expect(typeof problem.title).toBe('string')
  return problem
}

/**
 * What the server writes on the wire, over real sockets (`inject` bypasses
 * Node's HTTP parser): issue #6, items 4, 8, 10, 13 and 23.
 */
for (const dialect of DIALECTS) {
  describe(`${dialect}: the wire protocol`, () => {
    let app: FastifyInstance
    let storage: TestStorage
    let port: number

    beforeAll(async () => {
      storage = await openTestStorage(dialect)
      app = await buildServer({ storage: storage.storage })
      await app.listen({ port: 0, host: '127.0.0.1' })
      port = (app.server.address() as AddressInfo).port
    })
    afterAll(async () => {
      await app.close()
      await storage.dispose()
    })

    describe('every error is problem+json (item 4)', () => {
      it('answers bad percent-encoding in a path, over-long path segments and unknown paths', async () => {
        expectProblem(await exchange(port, request('GET /v1/authors/%ff HTTP/1.1')), 400, 'bad_request')
        expectProblem(await exchange(port, request(`GET /v1/authors/${'1'.repeat(101)} HTTP/1.1`)), 414, 'uri_too_long')
        expectProblem(await exchange(port, request(`GET /v1/${'a'.repeat(101)} HTTP/1.1`)), 414, 'uri_too_long')
        for (const path of ['/', '/nope', '/v1', '/docs/static/nope.js']) {
          const problem = expectProblem(await exchange(port, request(`GET ${path} HTTP/1.1`)), 404, 'not_found')
          expect(problem.instance).toBe(path)
        }
      })

      it('answers requests the HTTP parser refuses with a complete response, then closes', async () => {
        const cases: [string, string, number, string][] = [
          [
            'headers over the limit',
            request('GET /v1/authors HTTP/1.1', [`X-Big: ${'a'.repeat(20_000)}`]),
            431,
            'header_fields_too_large',
          ],
          [
            'a URL over the limit',
            request(`GET /v1/authors?name=${'a'.repeat(20_000)} HTTP/1.1`),
            431,
            'header_fields_too_large',
          ],
          [
            'Content-Length and Transfer-Encoding',
            request('POST /v1/authors HTTP/1.1', ['Content-Length: 5', 'Transfer-Encoding: chunked'], '0\r\n\r\n'),
            400,
            'bad_request',
          ],
          [
            'a bad chunk size',
            request(
              'POST /v1/authors HTTP/1.1',
              ['Content-Type: application/json', 'Transfer-Encoding: chunked'],
              'zz\r\n{}\r\n0\r\n\r\n',
            ),
            400,
            'bad_request',
          ],
          ['an unknown method', request('FOO /v1/authors HTTP/1.1'), 400, 'bad_request'],
          ['a NUL in a header', request('GET /v1/authors HTTP/1.1', ['X-A: a\0b']), 400, 'bad_request'],
        ]
        for (const [what, raw, status, code] of cases) {
          const response = await exchange(port, raw)
          expect(response.headers.connection, what).toBe('close')
          expect(Number(response.headers['content-length']), what).toBe(Buffer.byteLength(response.body))
          const problem = expectProblem(response, status, code)
          expect(problem.detail, what).toEqual(expect.any(String))
        }
      })

      it('answers a request without Host', async () => {
        const response = await exchange(port, 'GET /v1/authors HTTP/1.1\r\nConnection: close\r\n\r\n')
        expect(expectProblem(response, 400, 'bad_request').detail).toMatch(/Host/)
      })
    })

    it('answers 405 with Allow to every other method HTTP defines on a known path (item 13)', async () => {
      for (const method of ['TRACE', 'PROPFIND', 'LOCK', 'MKCOL', 'COPY', 'PURGE']) {
        const collection = await exchange(port, request(`${method} /v1/authors HTTP/1.1`))
        expectProblem(collection, 405, 'method_not_allowed')
        expect(collection.headers.allow, method).toBe('GET, HEAD, POST, OPTIONS')
        const item = await exchange(
          port,
          request(
            `${method} /v1/orders/1/items/2 HTTP/1.1`,
            ['Content-Type: application/xml', 'Content-Length: 4'],
            '<a/>',
          ),
        )
        expectProblem(item, 405, 'method_not_allowed')
        expect(item.headers.allow, method).toBe('GET, HEAD, PUT, PATCH, DELETE, OPTIONS')
      }
      expectProblem(await exchange(port, request('PROPFIND /v1/widgets HTTP/1.1')), 404, 'not_found')
    })

    it('answers those 405s without a route per method: a path has one OPTIONS route beside its endpoints (issue 7, start-up)', async () => {
      expect(app.hasRoute({ method: 'OPTIONS', url: '/v1/orders/:order_id/items/:item_id' })).toBe(true)
      for (const method of ['TRACE', 'PROPFIND', 'POST'] as const) {
        expect(app.hasRoute({ method, url: '/v1/orders/:order_id/items/:item_id' }), method).toBe(false)
      }
      const response = await app.inject({ method: 'POST', url: '/v1/orders/1/items/2' })
      expect(response.statusCode).toBe(405)
      expect(response.headers.allow).toBe('GET, HEAD, PUT, PATCH, DELETE, OPTIONS')
    })

    it('accepts only UTF-8 bodies: another declared charset is 415, charset=utf-8 in any case is fine (item 13)', async () => {
      const body = '{"name":"Ada"}'
      const send = (contentType: string) =>
        exchange(
          port,
          request(
            'POST /v1/authors HTTP/1.1',
            [`Content-Type: ${contentType}`, `Content-Length: ${body.length}`],
            body,
          ),
        )
      for (const contentType of [
        'application/json; charset=utf-16',
        'application/json;charset="ISO-8859-1"',
        'application/json; charset=latin1',
      ]) {
        expectProblem(await send(contentType), 415, 'unsupported_media_type')
      }
      for (const contentType of [
        'application/json; charset=utf-8',
        'application/json; charset=UTF-8',
        'application/json;charset="Utf-8"',
        'application/json',
      ]) {
        expect((await send(contentType)).status, contentType).toBe(201)
      }
    })

    it('reads bodies as sent: a content coding is 415, bytes that are not UTF-8 are malformed, never replaced', async () => {
      const post = (headers: string[], body: Buffer) =>
        exchange(
          port,
          Buffer.concat([
            Buffer.from(
              request('POST /v1/authors HTTP/1.1', [
                'Content-Type: application/json',
                `Content-Length: ${body.length}`,
                ...headers,
              ]),
            ),
            body,
          ]),
        )
      const plain = Buffer.from('{"name":"plain"}')
      for (const coding of ['gzip', 'br', 'deflate']) {
        const problem = expectProblem(await post([`Content-Encoding: ${coding}`], plain), 415, 'unsupported_media_type')
        expect(problem.detail).toContain(coding)
      }
      expect((await post(['Content-Encoding: identity'], plain)).status).toBe(201)
      for (const bytes of [[0xed, 0xa0, 0x80], [0xff, 0xfe], [0xc3]]) {
        const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')])
        const problem = expectProblem(await post([], body), 400, 'malformed_body')
        expect(problem.detail).toMatch(/UTF-8/)
      }
    })

    it('answers what Node would answer on its own as problems: Expect, CONNECT, several Host or Content-Length headers', async () => {
      const body = '{"name":"Ada"}'
      const expectation = await exchange(
        port,
        request(
          'POST /v1/authors HTTP/1.1',
          ['Content-Type: application/json', `Content-Length: ${body.length}`, 'Expect: 100-banana'],
          body,
        ),
      )
      expect(expectProblem(expectation, 417, 'expectation_failed').detail).toContain('100-banana')
      const tunnel = await exchange(port, 'CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n')
      expect(expectProblem(tunnel, 400, 'bad_request').detail).toMatch(/CONNECT/)
      const hosts = await exchange(port, request('GET /v1/authors HTTP/1.1', ['Host: evil.example']))
      expect(expectProblem(hosts, 400, 'bad_request').detail).toMatch(/more than one Host/)
      const lengths = await exchange(
        port,
        request(
          'POST /v1/authors HTTP/1.1',
          ['Content-Type: application/json', 'Content-Length: 14', 'Content-Length: 14'],
          body,
        ),
      )
      expect(expectProblem(lengths, 400, 'bad_request').detail).toMatch(/more than one Content-Length/)
    })

    it('refuses a second Authorization or Content-Type header rather than read the first (issue 18, item 15)', async () => {
      const body = '{"name":"Ada"}'
      const json = ['Content-Type: application/json', `Content-Length: ${body.length}`]
      for (const [repeated, headers] of [
        ['Authorization', [...json, 'Authorization: Bearer a.b.c', 'Authorization: Bearer garbage']],
        ['Content-Type', [...json, 'Content-Type: text/plain']],
      ] as const) {
        const answer = await exchange(port, request('POST /v1/authors HTTP/1.1', [...headers], body))
        expect(expectProblem(answer, 400, 'bad_request').detail).toBe(
          `The request has more than one ${repeated} header; send one.`,
        )
      }
      expect((await exchange(port, request('POST /v1/authors HTTP/1.1', json, body))).status).toBe(201)
    })

    it('answers OPTIONS * with the methods of the server (issue 18, item 19)', async () => {
      const answer = await exchange(port, request('OPTIONS * HTTP/1.1'))
      expect(answer.status).toBe(204)
      expect(answer.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS')
    })

    it('names a __proto__ or constructor.prototype key of valid JSON at its pointer (issue 18, item 18)', async () => {
      for (const [body, pointer] of [
        ['{"name":"Ada","__proto__":{"admin":true}}', '/__proto__'],
        ['{"name":"Ada","email":{"constructor":{"prototype":{}}}}', '/email/constructor/prototype'],
      ] as const) {
        const answer = await exchange(
          port,
          request(
            'POST /v1/authors HTTP/1.1',
            ['Content-Type: application/json', `Content-Length: ${body.length}`],
            body,
          ),
        )
        const problem = expectProblem(answer, 400, 'validation_failed')
        expect(problem.errors).toEqual([{ in: 'body', pointer, detail: expect.stringMatching(/^is not a field/) }])
      }
    })

    it('builds Location, links and problem instances from the route, never an absolute-form target (item 8)', async () => {
      const body = '{"name":"Ada"}'
      const created = await exchange(
        port,
        request(
          'POST http://evil.example/v1/authors HTTP/1.1',
          ['Content-Type: application/json', `Content-Length: ${body.length}`],
          body,
        ),
      )
      expect(created.status).toBe(201)
      const id = (JSON.parse(created.body) as { data: { id: number } }).data.id
      expect(created.headers.location).toBe(`/v1/authors/${id}`)
      const listed = await exchange(port, request('GET http://evil.example/v1/authors?per_page=1 HTTP/1.1'))
      const links = (JSON.parse(listed.body) as { links: Record<string, string | null> }).links
      for (const link of Object.values(links)) if (link !== null) expect(link).toMatch(/^\/v1\/authors\?/)
      const cursor = (JSON.parse(listed.body) as { meta: { next_cursor: string | null } }).meta.next_cursor
      if (cursor) {
        const walked = await exchange(
          port,
          request(`GET http://evil.example/v1/authors?per_page=1&cursor=${cursor} HTTP/1.1`),
        )
        for (const link of Object.values((JSON.parse(walked.body) as { links: Record<string, string | null> }).links)) {
          if (link !== null) expect(link).toMatch(/^\/v1\/authors/)
        }
      }
      for (const target of [
        'http://evil.example/v1/authors/999999',
        'http://evil.example/v1/nope',
        'http://evil.example/v1/authors?colour=red',
      ]) {
        const response = await exchange(port, request(`GET ${target} HTTP/1.1`))
        expect(response.status, target).toBeGreaterThanOrEqual(400)
        expect(response.body, target).not.toContain('evil.example')
        expect((JSON.parse(response.body) as { instance: string }).instance, target).toMatch(/^\/v1\//)
      }
    })

    it('serves /docs with "Try it out" aimed at the server that served it, whatever host and port (item 23)', async () => {
      const response = await exchange(port, request('GET /docs/json HTTP/1.1'))
      const document = JSON.parse(response.body) as { servers: { url: string }[] }
      expect(document.servers[0]).toEqual({ url: '/', description: 'This server' })
    })
  })
}

describe('timeouts (item 10)', () => {
  it('has request, headers and keep-alive timeouts by default', async () => {
    const app = await buildServer({ docs: false })
    try {
      expect(app.server.requestTimeout).toBe(30_000)
      expect(app.server.headersTimeout).toBe(10_000)
      expect(app.server.keepAliveTimeout).toBe(72_000)
    } finally {
      await app.close()
    }
  })

  it('cuts a body that stops arriving with 408 and closes the connection', async () => {
    const app = await buildServer({ docs: false, timeouts: { requestMs: 200, headersMs: 200, keepAliveMs: 1_000 } })
    expect(app.server.keepAliveTimeout).toBe(1_000)
    try {
      await app.listen({ port: 0, host: '127.0.0.1' })
      const port = (app.server.address() as AddressInfo).port
      // Declares 100 bytes, sends 4, then waits: only the timeout ends the exchange.
      const response = await exchange(
        port,
        request('POST /v1/authors HTTP/1.1', ['Content-Type: application/json', 'Content-Length: 100'], '{"na'),
      )
      expect(response.headers.connection).toBe('close')
      expectProblem(response, 408, 'request_timeout')
      const headers = await exchange(port, 'GET /v1/authors HTTP/1.1\r\nHost: 127.0.0.1\r\n')
      expectProblem(headers, 408, 'request_timeout')
    } finally {
      await app.close()
    }
  })
})
