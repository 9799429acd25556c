/** Who a request is from, once its credentials verified. */
export interface Caller {
  /** The auth scheme the credentials belong to. */
  readonly scheme: string
  /** A JWT's payload; an API key's `{ sub: <id> }`. */
  readonly claims: Readonly<Record<string, unknown>>
  readonly scopes: ReadonlySet<string>
}
