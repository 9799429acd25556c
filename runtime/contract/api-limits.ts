/** The limits of one API, from the manifest's `limits:` with DEFAULT_LIMITS filled in. */
export interface ApiLimits {
  readonly perPageDefault: number
  readonly perPageMax: number
  readonly includeMax: number
  readonly includeDepth: number
  /** Records one included has-many relation embeds per record; more are cut and linked (meta.truncated). */
  readonly includeItemsMax: number
  readonly bodyMaxBytes: number
}

/**
 * The limits a manifest gets when it leaves a key out, under its `limits:`
 * keys. manifest.schema.json shows the same numbers as `default`s for
 * editors; a test keeps them equal.
 */
export const DEFAULT_LIMITS = {
  per_page_default: 20,
  per_page_max: 100,
  include_max: 3,
  include_depth: 2,
  // Lowered to per_page_max when that is smaller, so links to the rest stay valid pages.
  include_items_max: 50,
  body_max_bytes: 1_048_576,
  // The most groups one aggregates request computes (its largest per_page); a resource's `aggregate.groups_max` overrides it.
  aggregate_groups_max: 1000,
} as const satisfies Readonly<Record<string, number>>

/**
 * The largest `page` a collection takes: the row offset, (page - 1) ×
 * per_page, stays a safe integer at any per_page up to `perPageMax`.
 */
export function maxPageNumber(perPageMax: number): number {
  return Math.floor(Number.MAX_SAFE_INTEGER / perPageMax)
}
