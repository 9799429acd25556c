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
