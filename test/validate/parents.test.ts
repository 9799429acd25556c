import { describe, expect, it } from 'vitest'
import { codesAt, expectOnlyDiagnostic, withResources } from './diagnose.js'

describe('parent rules', () => {
  it('accepts a three-level chain (flattened, not rejected)', () => {
    const text = withResources(
      '  orders: {}\n  items:\n    parent: orders\n  adjustments:\n    parent: items\n    on_delete: cascade\n',
    )
    expect(codesAt(text)).toEqual([])
  })

  it.each([
    [
      'an unknown parent, with a did-you-mean',
      '  orders: {}\n  items:\n    parent: order\n',
      'PARENT_UNKNOWN 9:13',
      'parent "order" of resource "items" is not a resource in this manifest; did you mean "orders"?',
    ],
    [
      'an unknown parent, listing the resources',
      '  orders: {}\n  items:\n    parent: warehouses\n',
      'PARENT_UNKNOWN 9:13',
      'declared resources: orders, items',
    ],
    [
      'a parent named like an Object.prototype member',
      '  orders: {}\n  items:\n    parent: constructor\n',
      'PARENT_UNKNOWN 9:13',
      'parent "constructor"',
    ],
    ['a self-parent', '  orders:\n    parent: orders\n', 'PARENT_CYCLE 8:13', 'resource "orders" is its own parent'],
    [
      'a two-resource loop, once',
      '  alphas:\n    parent: betas\n  betas:\n    parent: alphas\n',
      'PARENT_CYCLE 8:13',
      '(alphas → betas → alphas)',
    ],
    [
      'a three-resource loop, once, at the first member',
      '  orders: {}\n  alphas:\n    parent: gammas\n  betas:\n    parent: alphas\n  gammas:\n    parent: betas\n',
      'PARENT_CYCLE 9:13',
      '(alphas → gammas → betas → alphas)',
    ],
    [
      'on_delete without parent, at the key',
      '  orders:\n    on_delete: cascade\n',
      'ON_DELETE_WITHOUT_PARENT 8:5',
      'on_delete in resource "orders" has no effect',
    ],
  ])('rejects %s', (_, body, expected, message) => {
    expectOnlyDiagnostic(withResources(body), expected, message)
  })

  it('reports a chain leading into a loop only for the loop', () => {
    const text = withResources(
      '  leaves:\n    parent: alphas\n  alphas:\n    parent: betas\n  betas:\n    parent: alphas\n',
    )
    expect(codesAt(text)).toEqual(['PARENT_CYCLE 10:13'])
  })
})
