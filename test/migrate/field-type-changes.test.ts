import { afterEach, describe, expect, it } from 'vitest'
import { DIALECTS } from '../support/test-postgres.js'
import { disposeMigrationProjects, startMigrationProject } from './start-migration-project.js'

/**
 * Migrations of decimal, json and array fields (issue 17, "Types"), end to
 * end on each database as in change-kinds.test.ts: adding them, widening an
 * integer to a decimal without --allow-data-loss, narrowing a decimal's scale
 * only with it (values rounded), and reading a decimal as text. Each migrated
 * database must equal a fresh one (MigrationProject.migrate checks it).
 */
afterEach(() => disposeMigrationProjects())

const PRODUCTS = `  products:
    fields:
      name: { type: string, required: true }
      price: { type: integer }
`
const ROWS = {
  products: [
    { name: 'Big', price: 9007199254740991 },
    { name: 'Small', price: -3 },
    { name: 'None', price: null },
  ],
}

const post = (url: string, payload: object) => ({ method: 'POST' as const, url, payload })

describe.each(DIALECTS)('%s: decimal, json and array migrations', (dialect) => {
  it('adds decimal, json and array fields, which new rows then hold', async () => {
    const project = await startMigrationProject(dialect, PRODUCTS, ROWS)
    const served = await project.migrate(`${PRODUCTS}      cost: { type: decimal, precision: 20, scale: 2 }
      settings: { type: json, schema: { type: object } }
      labels: { type: array, items: { type: string } }
`)
    expect(await served.list('products')).toEqual(
      project.seeded.products!.map((row) => ({ ...row, cost: null, settings: null, labels: null })),
    )
    const added = await served.send(
      post('/v1/products', { name: 'New', cost: '123456789012345678.5', settings: { a: [1] }, labels: ['x'] }),
    )
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(added.body.data).toMatchObject({ cost: '123456789012345678.50', settings: { a: [1] }, labels: ['x'] })
  })

  it('widens an integer to a decimal with 16 integer digits or more, keeping every value exactly', async () => {
    const project = await startMigrationProject(dialect, PRODUCTS, ROWS)
    const served = await project.migrate(
      PRODUCTS.replace('price: { type: integer }', 'price: { type: decimal, precision: 20, scale: 2 }'),
    )
    expect(served.created.stdout).toContain('products: alter price')
    expect((await served.list('products')).map((row) => row.price)).toEqual(['9007199254740991.00', '-3.00', null])
    const filtered = await served.send({ method: 'GET', url: '/v1/products?filter[price][lt]=0' })
    expect(filtered.body.data.map((row: { name: string }) => row.name)).toEqual(['Small'])
  })

  it('narrows a decimal only with --allow-data-loss: rounded to the new scale, NULL where the integer digits overflow', async () => {
    const before = `  products:
    fields:
      price: { type: decimal, precision: 12, scale: 3 }
`
    const project = await startMigrationProject(dialect, before, {
      products: [{ price: '12.345' }, { price: '-0.005' }, { price: '123456789.999' }, { price: '7' }],
    })
    const after = before.replace('precision: 12, scale: 3', 'precision: 10, scale: 2')
    const refused = await project.refuse(after)
    expect(refused).toContain('MIGRATION_DATA_LOSS')
    expect(refused).toContain(
      'changes type from decimal(12,3) to decimal(10,2): stored values are rounded to its scale',
    )
    const served = await project.migrate(after, '--allow-data-loss')
    // Half away from zero, as PostgreSQL's numeric rounds; 123456790.00 has 9 integer digits, one more than 8.
    expect((await served.list('products')).map((row) => row.price)).toEqual(['12.35', '-0.01', null, '7.00'])
  })

  it('reads a decimal as a string, and widens a decimal without --allow-data-loss', async () => {
    const before = `  products:
    fields:
      price: { type: decimal, precision: 6, scale: 2 }
      cost: { type: decimal, precision: 6, scale: 2 }
`
    const project = await startMigrationProject(dialect, before, {
      products: [{ price: '-1234.5', cost: '0.5' }],
    })
    const served = await project.migrate(
      before
        .replace('price: { type: decimal, precision: 6, scale: 2 }', 'price: { type: string }')
        .replace('cost: { type: decimal, precision: 6, scale: 2 }', 'cost: { type: decimal, precision: 9, scale: 4 }'),
    )
    const [row] = await served.list('products')
    expect(row).toMatchObject({ price: '-1234.50', cost: '0.5000' })
  })
})
