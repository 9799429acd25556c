import { foreignKeyOf } from './foreign-key-of.js'
import { singularOf } from './singular-of.js'

/** The names the generator derives from one resource name (and its declared singular, if any). */
export interface ResourceNames {
  /** `order-item` */
  readonly singular: string
  /** SQL table: `order_items`. */
  readonly table: string
  /** TypeScript type of one record: `OrderItem`. */
  readonly typeName: string
  /** TypeScript value identifier: `orderItems`. */
  readonly identifier: string
  /** Foreign key / nested path parameter naming one record: `order_item_id`. */
  readonly idParam: string
}

/**
 * Every name derived from a resource name. The model builder and manifest
 * validation both call this, so what validation checks is what the
 * generator writes.
 */
export function deriveResourceNames(name: string, declaredSingular?: string): ResourceNames {
  const singular = singularOf(name, declaredSingular)
  return {
    singular,
    table: snakeCase(name),
    typeName: pascalCase(singular),
    identifier: camelCase(name),
    idParam: foreignKeyOf(name, declaredSingular),
  }
}

export function snakeCase(hyphenated: string): string {
  return hyphenated.replaceAll('-', '_')
}

/** `order-items` → `OrderItems`; also splits on `_`, so `order_id` → `OrderId`. */
export function pascalCase(name: string): string {
  return name
    .split(/[-_]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')
}

/** `order-items` → `orderItems`; `order_id` → `orderId`. */
function camelCase(name: string): string {
  const pascal = pascalCase(name)
  return pascal.charAt(0).toLowerCase() + pascal.slice(1)
}
