import { singularOf } from '../names/singular-of.js'

/**
 * The column, and path parameter, that names one record of `resource`:
 * `order_id` for `orders`, `order_item_id` for `order-items`. A `parent:`
 * adds it to the child as the parent key.
 */
export function foreignKeyOf(resource: string, declaredSingular?: string): string {
  return `${singularOf(resource, declaredSingular).replaceAll('-', '_')}_id`
}
