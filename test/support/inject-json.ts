import type { FastifyInstance, InjectOptions } from 'fastify'

/** Sends a request to `app`; the JSON body parsed (null when empty). */
export async function injectJson(app: FastifyInstance, options: InjectOptions): Promise<{ status: number; body: any }> {
  const response = await app.inject(options)
  return { status: response.statusCode, body: response.body === '' ? null : JSON.parse(response.body) }
}
