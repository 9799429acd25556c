/**
 * The largest `page` a collection takes: the row offset, (page - 1) ×
 * per_page, stays a safe integer at any per_page up to `perPageMax`.
 */
export function maxPageNumber(perPageMax: number): number {
  return Math.floor(Number.MAX_SAFE_INTEGER / perPageMax)
}
