import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildServer as buildExampleServer } from '../../generated/server.js'
import { allTables as exampleTables } from '../../generated/schema.js'
import { defineApp, problem } from '../../runtime/index.js'
import { allTables as hooksTables } from '../fixtures/hooks-api/generated/schema.js'
import { appModule } from '../fixtures/hooks-api/generated/server.js'
import { DIALECTS, openTestStorage, type TestStorage } from '../support/test-storage.js'
import { buildHooksAppWith, call, EXAMPLE_JWT_SECRET, exampleBearer } from './hostile-pg-support.js'

const app = defineApp({
  ...appModule,
  hooks: {
    ...appModule.hooks,
    notes: {
      beforeCreate: async ({ body }: any) => {
        if (body.content === 'bad-change') return { ...body, content: 5 }
        if (body.content === 'bad-tag') return { ...body, tag: 7 }
        if (body.content === 'nested-pointer')
          throw problem(422, 'nested', 'x', { pointers: { '/content/0': 'first char' } })
        if (body.content === 'unknown-pointer')
          throw problem(422, 'unknown', 'x', { pointers: { '/nope': 'no such field' } })
        return appModule.hooks!.notes!.beforeCreate!({ body } as any)
      },
    },
  },
} as any)

const editor = exampleBearer('ed', 'posts:write')

for (const dialect of DIALECTS) {
  describe(`${dialect}: hooks through v1 (text) and v2 (content)`, () => {
    let storage: TestStorage
    let server: FastifyInstance
    const logged: Record<string, unknown>[] = []
    beforeAll(async () => {
      storage = await openTestStorage(dialect, hooksTables)
      server = await buildHooksAppWith(storage.storage, app, logged)
    })
    afterAll(async () => {
      await server?.close()
      await storage?.dispose()
    })

    it('the hook changes v1 text as v2 content; both versions read it', async () => {
      const v1 = await call(server, { method: 'POST', url: '/v1/notes', payload: { text: 'hello world' } })
      expect(v1.status).toBe(201)
      expect(v1.body.data).toMatchObject({ text: 'HELLO WORLD', word_count: 2 })
      expect(v1.body.data).not.toHaveProperty('content')
      const v2 = await call(server, { method: 'GET', url: `/v2/notes/${v1.body.data.id}` })
      expect(v2.body.data).toMatchObject({ content: 'HELLO WORLD', word_count: 2 })
    })

    it("a hook's problem pointer and a hook's invalid change are named in the request's version", async () => {
      const forbidden = await call(server, { method: 'POST', url: '/v1/notes', payload: { text: 'forbidden' } })
      expect(forbidden.status).toBe(422)
      expect(forbidden.body.errors).toEqual([{ in: 'body', pointer: '/text', detail: 'is forbidden' }])
      const bad = await call(server, { method: 'POST', url: '/v1/notes', payload: { text: 'bad-change' } })
      expect(bad.status).toBe(400)
      expect(bad.body.errors.map((e: any) => e.pointer)).toEqual(['/text'])
      const badV2 = await call(server, { method: 'POST', url: '/v2/notes', payload: { content: 'bad-change' } })
      expect(badV2.body.errors.map((e: any) => e.pointer)).toEqual(['/content'])
      const nested = await call(server, { method: 'POST', url: '/v1/notes', payload: { text: 'nested-pointer' } })
      expect(nested.body.errors?.map((e: any) => e.pointer)).toEqual(['/text/0'])
      const unknown = await call(server, { method: 'POST', url: '/v1/notes', payload: { text: 'unknown-pointer' } })
      expect(unknown.status).toBe(422)
      expect(unknown.body.errors?.map((e: any) => e.pointer)).toEqual(['/nope'])
    })

    it('v1 body sending the v2 name is refused, naming the field', async () => {
      const answer = await call(server, { method: 'POST', url: '/v1/notes', payload: { content: 'x' } })
      expect(answer.status).toBe(400)
      expect(answer.body.errors.map((e: any) => e.pointer).sort()).toEqual(['/content', '/text'])
    })
  })

  describe(`${dialect}: the example's compute through v1 (body) and v2 (content)`, () => {
    let storage: TestStorage
    let server: FastifyInstance
    beforeAll(async () => {
      storage = await openTestStorage(dialect, exampleTables)
      server = await buildExampleServer({
        storage: storage.storage,
        docs: false,
        env: { JWT_SECRET: EXAMPLE_JWT_SECRET },
        logger: false,
      })
    })
    afterAll(async () => {
      await server?.close()
      await storage?.dispose()
    })

    it('word_count is the same through v1 and v2, in lists, reads, includes and cursor pages', async () => {
      const category = (
        await call(server, { method: 'POST', url: '/v2/categories', payload: { name: 'c' }, headers: editor })
      ).body.data.id
      const author = (await call(server, { method: 'POST', url: '/v2/authors', payload: { name: 'a' } })).body.data.id
      for (let i = 0; i < 30; i++) {
        const version = i % 2 ? 'v1' : 'v2'
        const field = version === 'v1' ? 'body' : 'content'
        const answer = await call(server, {
          method: 'POST',
          url: `/${version}/posts`,
          payload: { title: `t${i}`, category_id: category, author_id: author, [field]: 'w '.repeat(i + 1) },
          headers: editor,
        })
        expect(answer.status, JSON.stringify(answer.body)).toBe(201)
        expect(answer.body.data.word_count).toBe(i + 1)
      }
      for (const version of ['v1', 'v2']) {
        const counts: number[] = []
        let url: string | null = `/${version}/posts?per_page=7&sort=id`
        while (url) {
          const page = await call(server, { method: 'GET', url })
          expect(page.status).toBe(200)
          counts.push(...page.body.data.map((p: any) => p.word_count))
          url = page.body.links.next
        }
        expect(counts).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
        const included = await call(server, { method: 'GET', url: `/${version}/authors/${author}?include=posts` })
        expect(included.status).toBe(200)
        expect(included.body.data.posts.map((p: any) => p.word_count).sort((a: number, b: number) => a - b)).toEqual(
          Array.from({ length: 30 }, (_, i) => i + 1),
        )
      }
    })
  })
}
