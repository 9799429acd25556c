import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { createClient as generateHeyApiClient } from '@hey-api/openapi-ts'
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareContracts } from '../../generator/contract/compare-contracts.js'

/**
 * Issue 18, item 10: the typed clients teams generate from the committed
 * OpenAPI document (generated/v2/openapi.json) compile, each generator run as
 * its README says, without flags. openapi-typescript makes a property with a
 * `default` required unless its schema sits under a request body, so a create
 * that leaves `status` (default draft) out failed with TS2322 while create
 * bodies were `components.schemas`. Each case generates offline, then
 * typechecks a small file that creates a post without its defaulted fields
 * and reads the record back, under the repo's strict compiler options.
 */
const root = join(import.meta.dirname, '../..')
const documentPath = join(root, 'generated/v2/openapi.json')

const OPENAPI_FETCH_CLIENT = String.raw`
import createClient from 'openapi-fetch'
import type { components, paths } from './openapi-types.js'

export async function createPost(baseUrl: string): Promise<components['schemas']['Post']['status']> {
  const client = createClient<paths>({ baseUrl })
  const { data, error } = await client.POST('/v2/posts', { body: { title: 'Hello', category_id: 1 } })
  if (error !== undefined) throw new Error(error.detail)
  await client.PUT('/v2/posts/{id}', { params: { path: { id: data.data.id } }, body: { title: 'Hi', category_id: 1 } })
  return data.data.status
}
`

const HEY_API_CLIENT = String.raw`
import { createPost as postPost, replacePost } from './hey-api/sdk.gen.js'
import type { Post } from './hey-api/types.gen.js'

export async function createPost(): Promise<Post['status']> {
  const { data, error } = await postPost({ body: { title: 'Hello', category_id: 1 } })
  if (data === undefined) throw new Error(JSON.stringify(error))
  await replacePost({ path: { id: data.data.id }, body: { title: 'Hi', category_id: 1 } })
  return data.data.status
}
`

describe('typed clients generated from the committed OpenAPI document without flags', () => {
  let directory: string

  beforeAll(async () => {
    // Inside the repo (gitignored, and out of the repo typecheck) so that the clients' packages resolve from node_modules.
    directory = mkdtempSync(join(root, 'test/openapi/tmp-default-clients-'))
    const document = JSON.parse(readFileSync(documentPath, 'utf8')) as OpenAPI3
    writeFileSync(join(directory, 'openapi-types.ts'), astToString(await openapiTS(document)))
    writeFileSync(join(directory, 'openapi-fetch-client.ts'), OPENAPI_FETCH_CLIENT)
    await generateHeyApiClient({ input: documentPath, output: join(directory, 'hey-api'), logs: { level: 'silent' } })
    writeFileSync(join(directory, 'hey-api-client.ts'), HEY_API_CLIENT)
  }, 60_000)
  afterAll(() => rmSync(directory, { recursive: true, force: true }))

  /** The diagnostics of `file` and everything it imports, under the repo's own strict compiler options. */
  function typecheck(file: string): string[] {
    const configFile = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json')!
    const { config } = ts.readConfigFile(configFile, ts.sys.readFile) as { config: Record<string, unknown> }
    const parsed = ts.parseJsonConfigFileContent({ ...config, include: [], files: [] }, ts.sys, root, {}, configFile)
    expect(parsed.options.strict).toBe(true)
    const program = ts.createProgram([join(directory, file)], parsed.options)
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where = diagnostic.file
        ? `${relative(directory, diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start!).line + 1}`
        : '(global)'
      return `${where}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`
    })
  }

  it('openapi-typescript + openapi-fetch: creates and replaces a post without its defaulted fields', () => {
    expect(typecheck('openapi-fetch-client.ts')).toEqual([])
  })

  it('@hey-api/openapi-ts (types, SDK and its fetch client): creates and replaces a post without its defaulted fields', () => {
    expect(typecheck('hey-api-client.ts')).toEqual([])
  })
})

type Node = Record<string, any>

/** The document as restmint wrote it before item 10: create and replace bodies as `components.schemas`. */
function withBodiesAsSchemas(document: Node): Node {
  const moved = structuredClone(document)
  const bodies = moved.components.requestBodies as Record<string, Node>
  for (const [name, body] of Object.entries(bodies))
    moved.components.schemas[name] = body.content['application/json'].schema
  delete moved.components.requestBodies
  for (const item of Object.values(moved.paths as Record<string, Node>)) {
    for (const operation of Object.values(item)) {
      const ref = operation?.requestBody?.$ref as string | undefined
      if (ref === undefined) continue
      const schema = { $ref: ref.replace('#/components/requestBodies/', '#/components/schemas/') }
      operation.requestBody = { required: true, content: { 'application/json': { schema } } }
    }
  }
  return moved
}

describe('request bodies as components.requestBodies', () => {
  it('keep the contract: against a document published with them as schemas, check finds no difference', () => {
    const document = JSON.parse(readFileSync(documentPath, 'utf8')) as Node
    const before = withBodiesAsSchemas(document)
    expect(Object.keys(before.components.schemas)).toContain('PostCreate')
    expect(compareContracts(before, document)).toEqual([])
    expect(compareContracts(document, before)).toEqual([])
  })
})
