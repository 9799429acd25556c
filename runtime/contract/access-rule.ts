/**
 * Access rules as generated code hands them to the runtime, and as the model
 * holds them: one list of alternatives per operation (any of them grants it).
 */

/** The operations a resource's `access:` names; `update` covers PUT and PATCH. */
export const ACCESS_OPERATIONS = ['list', 'read', 'create', 'update', 'delete'] as const
export type AccessOperation = (typeof ACCESS_OPERATIONS)[number]

/**
 * `public`: anyone, credentials optional (invalid ones are still a 401);
 * `authenticated`: any valid credentials; `owner`: valid credentials, and only
 * rows whose owner field equals the caller's claim; `scopes`: valid
 * credentials holding every scope, from `scheme` when it is not null.
 */
export type AccessRule =
  'public' | 'authenticated' | 'owner' | { readonly scopes: readonly string[]; readonly scheme: string | null }

/** Every operation's alternatives, never empty; `deleted` only on a soft-deleting resource. */
export type ResourceAccess = Readonly<Record<AccessOperation, readonly AccessRule[]>> & {
  /** `?deleted=include|only` and restorations (soft_delete): who may see and restore deleted records. */
  readonly deleted?: readonly AccessRule[]
}

/** What authorize() is asked for: an operation, or seeing deleted records (falls back to `delete`). */
export type AccessRequest = AccessOperation | 'deleted'

/** `owner: { field, claim }`: the column stamped on create from the caller's claim. */
export interface OwnerRule {
  readonly field: string
  readonly claim: string
  /** The scheme whose callers' claim is compared: the same `sub` from another issuer or an API key is someone else. */
  readonly scheme: string
}

/** How long a token may live when its scheme sets no `max_ttl_s`: a day. */
export const DEFAULT_MAX_TTL_S = 86_400

/** A verified JWT scheme: `secretEnv` names the HS* secret, `jwksUrl` the RS* and ES* keys; exactly one is set. */
export interface JwtScheme {
  readonly name: string
  readonly type: 'jwt'
  readonly secretEnv: string | null
  readonly jwksUrl: string | null
  readonly issuer: string
  readonly audience: string
  readonly algorithms: readonly string[]
  /** Claim holding the scopes: a space-separated string or an array of strings. */
  readonly scopesClaim: string
  readonly clockToleranceS: number
  /** The longest a token may live (`exp - iat`, and `exp - now`); DEFAULT_MAX_TTL_S (a day) when absent. */
  readonly maxTtlS?: number
}

/** An API key scheme: `keysEnv` holds JSON `[{ id, sha256, scopes }]`, hashes only. */
export interface ApiKeyScheme {
  readonly name: string
  readonly type: 'api_key'
  /** As the manifest writes it: `X-API-Key`. */
  readonly header: string
  readonly keysEnv: string
}

export type AuthScheme = JwtScheme | ApiKeyScheme

/** One table's rules: who may do what, and its owner column. */
export interface TableAccess {
  readonly access: ResourceAccess
  readonly owner: OwnerRule | null
}

/** The API's `auth:` with every resource's rules, keyed by table name. */
export interface ApiAuth {
  readonly schemes: readonly AuthScheme[]
  readonly resources: Readonly<Record<string, TableAccess>>
}
