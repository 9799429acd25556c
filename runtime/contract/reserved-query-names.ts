/**
 * Query parameters of a collection GET that are not exact filters
 * (`?<field>=`): a field of one of these names could not be filtered that way,
 * so the manifest refuses it. In the order error messages list them.
 */
export const RESERVED_QUERY_NAMES = ['page', 'per_page', 'cursor', 'sort', 'include', 'filter'] as const
