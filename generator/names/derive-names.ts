import pluralize from 'pluralize'

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

/**
 * The singular of a resource name: the declared `singular:` when there is one,
 * otherwise the name with its last hyphen-separated word singularized
 * (`order-items` → `order-item`). Only the last word is the head noun.
 */
export function singularOf(resourceName: string, declared?: string): string {
  if (declared !== undefined) return declared
  const words = resourceName.split('-')
  const last = words.pop() ?? ''
  return [...words, pluralize.singular(last)].join('-')
}

/**
 * The column, and path parameter, that names one record of `resource`:
 * `order_id` for `orders`, `order_item_id` for `order-items`. A `parent:`
 * adds it to the child as the parent key.
 */
export function foreignKeyOf(resource: string, declaredSingular?: string): string {
  return `${singularOf(resource, declaredSingular).replaceAll('-', '_')}_id`
}

/** The foreign key field a belongs-to relation adds: `author_id` for `author`. */
export function relationKeyOf(relation: string): string {
  return `${relation}_id`
}

/** `author` of `author_id`: the belongs-to name whose key is `key` (relationKeyOf backwards). */
export function withoutIdSuffix(key: string): string {
  return key.slice(0, -relationKeyOf('').length)
}
