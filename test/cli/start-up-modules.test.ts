/**
 * Issue 7's start-up budgets, as behaviour: an unchanged `generate` and a
 * `serve` of unchanged output do not load the modules only a cache miss needs
 * (yaml, ajv, handlebars, prettier, esbuild), and a changed generated tree is
 * never served from the bundle of the old one. The child processes refuse to load
 * the named packages through a module resolve hook.
 */
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliProcess, spawnCli } from '../support/spawn-cli.js'

const exampleManifest = join(import.meta.dirname, '..', 'cases', 'naming-plural-good', 'resources.yaml')

// A project under a root with node_modules/, where restmint keeps its caches.
const root = mkdtempSync(join(tmpdir(), 'restmint-start-up-'))
const project = join(root, 'project')
const cache = join(root, 'node_modules', '.cache', 'restmint')
mkdirSync(project)
mkdirSync(join(root, 'node_modules'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
// The default cache directory, not the one the test run shares (vitest.config.ts): this file tests the caching.
const DEFAULT_CACHE: NodeJS.ProcessEnv = { RESTMINT_CACHE: '' }

/**
 * NODE_OPTIONS for a process in which restmint's own code, or the serve
 * bundle (cached under node_modules/.cache/, importing packages by file URL),
 * fails to import any of `packages` (other packages may).
 */
function refusing(...packages: string[]): NodeJS.ProcessEnv {
  const hooks = `export async function resolve(specifier, context, next) {
  const parent = String(context.parentURL)
  const fromRestmint = !parent.includes('/node_modules/') || parent.includes('/node_modules/.cache/')
  const name = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(specifier)?.[1] ?? specifier
  if (fromRestmint && ${JSON.stringify(packages)}.includes(name)) throw new Error('refused to load ' + name)
  return next(specifier, context)
}`
  const register = join(root, `refuse-${packages.join('-').replace(/[^\w-]/g, '_')}.mjs`)
  writeFileSync(
    register,
    `import { register } from 'node:module'\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)})\n`,
  )
  return { ...DEFAULT_CACHE, NODE_OPTIONS: `--import ${pathToFileURL(register).href}` }
}

function serveBundles(): string[] {
  return readdirSync(cache).filter((file) => file.endsWith('.mjs'))
}

async function serve(
  env: NodeJS.ProcessEnv = DEFAULT_CACHE,
  directory = project,
): Promise<{ served: boolean; stderr: string }> {
  const cli = spawnCli(directory, ['serve', '--db', 'sqlite::memory:', '--port', '0'], env)
  const served = await cli.waitForStdout(/restmint: serving/).then(
    () => true,
    () => false,
  )
  await cli.stop()
  return { served, stderr: cli.output().stderr }
}

describe('what restmint loads at start-up', () => {
  beforeAll(async () => {
    cpSync(exampleManifest, join(project, 'resources.yaml'))
    // By a child process as well: the caches are keyed by the code that runs, and the children run the compiled CLI.
    expect((await runCliProcess(project, ['generate'], DEFAULT_CACHE)).exitCode).toBe(0)
  })

  it('an unchanged generate loads no stage of the generator: no yaml, ajv, handlebars or prettier, nor esbuild', async () => {
    const run = await runCliProcess(project, ['generate'], refusing('yaml', 'ajv', 'handlebars', 'prettier', 'esbuild'))
    expect(run.stderr).toBe('')
    expect(run).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/: 0 written, \d+ unchanged, 0 removed/) })
  })

  it('an edited manifest runs every stage again: its result is not the cached one', async () => {
    const manifest = join(project, 'resources.yaml')
    const original = readFileSync(manifest, 'utf8')
    writeFileSync(manifest, original.replace('title: { type: string', 'name: { type: string'))
    try {
      const run = await runCliProcess(project, ['generate'], refusing('yaml'))
      expect(run.exitCode).toBe(1)
      expect(run.stderr).toMatch(/refused to load yaml/)
    } finally {
      writeFileSync(manifest, original)
    }
    expect(await runCliProcess(project, ['check'], refusing('yaml'))).toMatchObject({ exitCode: 0 })
  })

  it('serve bundles the generated tree once, then starts without esbuild or any generator module', async () => {
    expect(await serve()).toMatchObject({ served: true })
    expect(serveBundles()).toHaveLength(1)
    expect(await serve(refusing('esbuild', 'prettier', 'handlebars'))).toEqual({ served: true, stderr: '' })
  })

  it('serve of a manifest without auth, rate limits or CORS loads none of their packages, nor prom-client before /metrics', async () => {
    const optional = ['@fastify/jwt', 'get-jwks', '@fastify/rate-limit', 'ioredis', '@fastify/cors', 'prom-client']
    expect(await serve(refusing(...optional))).toEqual({ served: true, stderr: '' })
  })

  it('serve bundles a changed generated tree again, never reusing the bundle of the old one', async () => {
    expect(await serve()).toMatchObject({ served: true })
    const before = serveBundles()
    appendFileSync(join(project, 'generated', 'schema.ts'), '// edited by hand\n')
    const withoutEsbuild = await serve(refusing('esbuild'))
    expect(withoutEsbuild.served).toBe(false)
    expect(withoutEsbuild.stderr).toMatch(/refused to load esbuild/)
    expect(await serve()).toMatchObject({ served: true })
    expect(serveBundles()).toHaveLength(before.length + 1)
  })

  it('serve reuses the bundle when only an OpenAPI document changed, and /docs shows the changed one', async () => {
    expect(await serve()).toMatchObject({ served: true })
    const document = join(project, 'generated', 'v1', 'openapi.json')
    const original = readFileSync(document, 'utf8')
    writeFileSync(document, original.replace(/"title": "[^"]*"/, '"title": "Edited by hand"'))
    try {
      const cli = spawnCli(project, ['serve', '--db', 'sqlite::memory:', '--port', '0'], refusing('esbuild'))
      try {
        const [, url] = /serving \S+ at (http:\S+)/.exec(await cli.waitForStdout(/restmint: serving .* at http:\S+/))!
        const served = (await (await fetch(`${url}/docs/json`)).json()) as { info: { title: string } }
        expect(served.info.title).toBe('Edited by hand')
      } finally {
        await cli.stop()
      }
      expect(cli.output().stderr).toBe('')
    } finally {
      writeFileSync(document, original)
    }
  })
})

describe('the serve bundle of a project with an app module', () => {
  const withApp = join(root, 'with-app')
  const appModule = join(withApp, 'src', 'app.ts')
  beforeAll(async () => {
    cpSync(join(import.meta.dirname, '..', 'fixtures', 'hooks-api'), withApp, { recursive: true })
    expect((await runCliProcess(withApp, ['generate'], DEFAULT_CACHE)).exitCode).toBe(0)
  })

  it('is reused while the module is unchanged, and built again once it changes', async () => {
    expect(await serve(DEFAULT_CACHE, withApp)).toMatchObject({ served: true })
    const before = serveBundles()
    expect(await serve(refusing('esbuild'), withApp)).toEqual({ served: true, stderr: '' })
    appendFileSync(appModule, '// edited by hand\n')
    const withoutEsbuild = await serve(refusing('esbuild'), withApp)
    expect(withoutEsbuild.served).toBe(false)
    expect(withoutEsbuild.stderr).toMatch(/refused to load esbuild/)
    expect(await serve(DEFAULT_CACHE, withApp)).toMatchObject({ served: true })
    expect(serveBundles()).toHaveLength(before.length + 1)
  })
})
