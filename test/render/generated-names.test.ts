import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { deriveResourceNames } from '../../generator/names/derive-names.js'
import {
  listGeneratedNames,
  routesFunctionName,
  TABLE_LIST_NAME,
  tableConstantName,
  versionFunctionName,
} from '../../generator/names/generated-names.js'
import { findTemplatesDirectory } from '../../generator/render/find-templates-directory.js'

/**
 * Generated helper names are chosen so that no resource name can spell them;
 * these tests pin the shapes that guarantee it.
 */
describe('generated names', () => {
  it('keeps the table list apart from table constants', () => {
    expect(tableConstantName(deriveResourceNames('all-tables').identifier)).toBe('allTablesTable')
    expect(TABLE_LIST_NAME.endsWith('Table')).toBe(false)
  })

  it('keeps version functions apart from route functions', () => {
    expect(versionFunctionName('v1')).toBe('registerVersionV1')
    expect(routesFunctionName(deriveResourceNames('v1s').typeName)).toBe('registerV1Routes')
    expect(versionFunctionName('v1').endsWith('Routes')).toBe(false)
  })

  it('lists the nested bodies only for nested resources', () => {
    const names = deriveResourceNames('order-items')
    const plain = listGeneratedNames(names, false).map((generated) => generated.name)
    const nested = listGeneratedNames(names, true).map((generated) => generated.name)
    expect(plain).toEqual(expect.arrayContaining(['orderItemsTable', 'OrderItem', 'OrderItemPage', 'listOrderItems']))
    expect(plain).not.toContain('OrderItemNestedCreate')
    expect(nested).toEqual(
      expect.arrayContaining(['OrderItemNestedCreate', 'OrderItemNestedReplace', 'OrderItemNestedUpdate']),
    )
  })
})

describe('templates', () => {
  const directory = findTemplatesDirectory()
  // server.ts declares no name derived from a resource, so nothing there can shadow a global type.
  const files = [
    ...readdirSync(directory).filter((file) => file.endsWith('.hbs') && file !== 'server.ts.hbs'),
    ...readdirSync(join(directory, 'partials')).map((file) => `partials/${file}`),
  ]

  it.each(files)('%s uses no global generic type a resource type could shadow', (file) => {
    const source = readFileSync(join(directory, file), 'utf8')
    expect(source).not.toMatch(
      /\b(Partial|Required|Readonly|Record|Pick|Omit|Exclude|Extract|NonNullable|Array|ReadonlyArray|Promise|Map|Set)\s*</,
    )
  })
})
