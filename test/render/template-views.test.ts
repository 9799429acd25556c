import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Handlebars from 'handlebars'
import { describe, expect, it, vi } from 'vitest'
import { buildModel } from '../../generator/model/build-model.js'
import { createContentCache } from '../../generator/emit/content-cache.js'
import { findTemplatesDirectory } from '../../generator/render/find-templates-directory.js'
import { renderProject } from '../../generator/render/render-project.js'
import { templateHelpers } from '../../generator/render/template-helpers.js'
import type { TypesView } from '../../generator/render/template-views.js'
import type { ResourceComponentNames } from '../../generator/names/generated-names.js'

/** Every (template, view) pair renderProject renders, as the real view builders made them. */
const rendered = vi.hoisted(() => [] as { name: string; view: object }[])
vi.mock(import('../../generator/render/load-templates.js'), async (importOriginal) => {
  const original = await importOriginal()
  return {
    ...original,
    loadTemplates: () => {
      const render = original.loadTemplates()
      return (name, view) => {
        rendered.push({ name, view })
        return render(name, view)
      }
    },
  }
})

/** Helpers a mustache or block may name: the house's own and Handlebars' built-in ones. */
const HELPERS = new Set([...Object.keys(templateHelpers), 'each', 'if', 'unless', 'with', 'lookup', 'log'])
/** Block helpers whose block runs in another context (an item, a member), not the view. */
const CONTEXT_CHANGING = new Set(['each', 'with'])

type Node = hbs.AST.Node

/**
 * The names of the view fields a template reads directly (`types` of
 * `{{ident types.create}}`, `tables` of `{{#each tables}}`), partials
 * included; reads inside `#each`/`#with` blocks are of another context.
 */
function readViewFields(program: hbs.AST.Program, partials: ReadonlyMap<string, hbs.AST.Program>): Set<string> {
  const fields = new Set<string>()
  const visitAll = (nodes: readonly Node[], depth: number): void => nodes.forEach((node) => visit(node, depth))
  const visitArguments = (node: { params: Node[]; hash?: hbs.AST.Hash }, depth: number): void => {
    visitAll(node.params, depth)
    visitAll(node.hash?.pairs.map((pair) => pair.value) ?? [], depth)
  }
  const visit = (node: Node, depth: number): void => {
    switch (node.type) {
      case 'Program':
        return visitAll((node as hbs.AST.Program).body, depth)
      case 'PathExpression': {
        const path = node as hbs.AST.PathExpression
        if (!path.data && path.depth === depth && path.parts[0] !== undefined) fields.add(path.parts[0])
        return
      }
      case 'MustacheStatement':
      case 'SubExpression': {
        const call = node as hbs.AST.MustacheStatement
        if (!(call.path.type === 'PathExpression' && HELPERS.has((call.path as hbs.AST.PathExpression).original))) {
          visit(call.path, depth)
        }
        return visitArguments(call, depth)
      }
      case 'BlockStatement': {
        const block = node as hbs.AST.BlockStatement
        visitArguments(block, depth)
        visit(block.program, CONTEXT_CHANGING.has(block.path.original) ? depth + 1 : depth)
        if (block.inverse) visit(block.inverse, depth)
        return
      }
      case 'PartialStatement': {
        const partial = node as hbs.AST.PartialStatement
        visitArguments(partial, depth)
        const name = (partial.name as hbs.AST.PathExpression).original
        const body = partials.get(name)
        expect(body, `partial ${name}`).toBeDefined()
        // With a context argument the partial reads that value, not the view; what it reads from its hash is given.
        if (depth > 0 || partial.params.length > 0) return
        const given = new Set(partial.hash?.pairs.map((pair) => pair.key))
        for (const field of readViewFields(body!, partials)) if (!given.has(field)) fields.add(field)
        return
      }
    }
  }
  visit(program, 0)
  return fields
}

/**
 * A small API that takes every branch of every template (an enum, a nullable
 * field, a nested resource, an older version translated to the storage, custom
 * operations of each kind), so rendering it also checks the reads below a
 * view's top level (`types.create`, the fields of `#each` items): the helpers
 * refuse the undefined a missing one gives them.
 */
const model = buildModel(
  {
    restmint: 1,
    service: { title: 'Views' },
    app: './src/app.ts',
    auth: {
      schemes: { user: { type: 'jwt', secret_env: 'SECRET', issuer: 'i', audience: 'a', algorithms: ['HS256'] } },
    },
    versions: {
      v1: {},
      v2: {
        changes: [
          { rename_field: { resource: 'items', from: 'count', to: 'quantity' }, why: 'quantity says what it counts' },
          { add_field: { resource: 'items', field: 'sku', older_value: 'unknown' }, why: 'items are stocked' },
        ],
      },
    },
    resources: {
      orders: {
        fields: { status: { type: 'string', enum: ['pending', 'paid'], default: 'pending' } },
        relations: { items: { resource: 'items', many: true } },
      },
      items: {
        parent: 'orders',
        fields: {
          quantity: { type: 'integer', required: true },
          note: { type: 'string', nullable: true },
          sku: { type: 'string', required: true },
        },
        rate: { requests: 10, per: '1m' },
        operations: {
          returns: { method: 'POST', body: { reason: { type: 'string', required: true } }, responds: 'items' },
        },
      },
      reports: {
        collection_only: true,
        operations: {
          totals: {
            method: 'GET',
            query: { year: { type: 'integer', required: true } },
            responds: { fields: { total: { type: 'number', nullable: true } }, many: true },
          },
        },
      },
    },
  },
  'resources.yaml',
)

describe('template views', () => {
  const directory = findTemplatesDirectory()
  const parse = (file: string) => Handlebars.parse(readFileSync(join(directory, file), 'utf8'))
  const partials = new Map(
    readdirSync(join(directory, 'partials')).map((file) => [file.replace(/\.hbs$/, ''), parse(`partials/${file}`)]),
  )
  const templates = readdirSync(directory)
    .filter((file) => file.endsWith('.hbs'))
    .map((file) => file.replace(/\.hbs$/, ''))
  renderProject(model, createContentCache(null))

  it('renders every template', () => {
    expect(new Set(rendered.map(({ name }) => name))).toEqual(new Set(templates))
  })

  it.each(templates)('%s reads exactly the fields of its view', (name) => {
    const reads = readViewFields(parse(`${name}.hbs`), partials)
    const views = rendered.filter((render) => render.name === name)
    expect(views.length).toBeGreaterThan(0)
    for (const { view } of views) expect([...reads].sort()).toEqual(Object.keys(view).sort())
  })

  it('refuses to render a view missing a field read below its top level', async () => {
    const { loadTemplates } = await vi.importActual<typeof import('../../generator/render/load-templates.js')>(
      '../../generator/render/load-templates.js',
    )
    const nested = rendered.find(({ name, view }) => name === 'types.ts' && 'nested' in view && view.nested !== null)
    const view = nested!.view as TypesView
    const { nestedUpdate: _, ...types } = view.types
    expect(() => loadTemplates()('types.ts', { ...view, types: types as ResourceComponentNames })).toThrow(
      /^internal error: types\.ts\.hbs:\d+:\d+: \{\{ident\}\} got undefined; the template reads a field its view/,
    )
  })
})
