import type { FastifyRequest } from 'fastify'
import type {
  AccessRequest,
  AccessRule,
  ApiAuth,
  AuthScheme,
  OwnerRule,
  ResourceAccess,
  TableAccess,
} from '../contract/access-rule.js'
import { buildChallenge } from './auth-challenge.js'
import type { Authenticate } from './authenticate-request.js'
import type { Caller } from './caller.js'
import type { RowFilter } from '../storage/storage.js'
import type { Row } from '../contract/table-definition.js'
import { ProblemError } from '../problems/problem-error.js'

/** What one request may touch, once its caller passed the operation's rule. */
export interface AccessGrant {
  /** Who the request is from; null without credentials (or without `auth:`). */
  readonly caller: Caller | null
  /** Conditions every row the operation reads or writes must also meet: the owner's, or none. */
  readonly rows: RowFilter
  /** Columns stamped on create: the owner field from the caller's claim, when the table has one. */
  readonly stamp: Row
  /** The scope sets the operation's rule also accepts, for a refusal to name ("or posts:admin"). */
  readonly scopeAlternatives: readonly (readonly string[])[]
  /**
   * The rows of `table` this caller may read (for nested parents and
   * includes): a scope, or null when it may read none.
   */
  readableRowsOf(table: string): RowFilter | null
}

/**
 * Authentication and access rules for every route: `authorize` runs before
 * the handler. Without `auth:` in the manifest everything is public and
 * `authorize` costs nothing.
 */
export interface AccessControl {
  /** False without `auth:`: every answer is the same for every caller. */
  readonly enabled: boolean
  authorize(request: FastifyRequest, table: string, operation: AccessRequest): Promise<AccessGrant>
  /**
   * A custom operation's own alternatives (its `access`), `owner` granting the
   * rows of `table` the caller owns.
   */
  authorizeRules(request: FastifyRequest, rules: readonly AccessRule[], table: string | null): Promise<AccessGrant>
  /** Whether `operation`'s answer may differ by caller: then `Cache-Control: private`, `Vary` on credentialHeaders. */
  dependsOnCaller(table: string, operation: AccessRequest): boolean
  /** The request headers credentials arrive in: `Authorization` and each API-key scheme's header. */
  readonly credentialHeaders: readonly string[]
}

export const OPEN_GRANT: AccessGrant = {
  caller: null,
  rows: {},
  stamp: {},
  scopeAlternatives: [],
  readableRowsOf: () => ({}),
}

export const PUBLIC_ACCESS: AccessControl = {
  enabled: false,
  credentialHeaders: [],
  authorize: async () => OPEN_GRANT,
  authorizeRules: async () => OPEN_GRANT,
  dependsOnCaller: () => false,
}

export function createAccessControl(auth: ApiAuth, authenticate: Authenticate): AccessControl {
  const rulesOf = (table: string): TableAccess | undefined => auth.resources[table]
  const readableRows = (table: string, caller: Caller | null): RowFilter | null => {
    const rules = rulesOf(table)
    return rules ? evaluate(rules.access.read, rules.owner, caller) : {}
  }
  return {
    enabled: true,
    credentialHeaders: [
      'Authorization',
      ...auth.schemes.flatMap((scheme) => (scheme.type === 'api_key' ? [scheme.header] : [])),
    ],
    async authorize(request, table, operation) {
      const caller = await authenticate(request)
      const rules = rulesOf(table)
      if (rules === undefined) return caller === null ? OPEN_GRANT : { ...OPEN_GRANT, caller }
      const alternatives = alternativesOf(rules.access, operation)
      const rows = evaluate(alternatives, rules.owner, caller)
      if (rows === null) throw refuse(auth, alternatives, caller)
      return {
        caller,
        rows,
        stamp: ownerStamp(rules.owner, caller),
        scopeAlternatives: alternatives.flatMap((rule) => (typeof rule === 'object' ? [rule.scopes] : [])),
        readableRowsOf: (other) => readableRows(other, caller),
      }
    },
    async authorizeRules(request, alternatives, table) {
      const caller = await authenticate(request)
      const owner = table === null ? null : (rulesOf(table)?.owner ?? null)
      const rows = evaluate(alternatives, owner, caller)
      if (rows === null) throw refuse(auth, alternatives, caller)
      return {
        caller,
        rows,
        stamp: {},
        scopeAlternatives: alternatives.flatMap((rule) => (typeof rule === 'object' ? [rule.scopes] : [])),
        readableRowsOf: (other) => readableRows(other, caller),
      }
    },
    dependsOnCaller(table, operation) {
      const rules = rulesOf(table)
      return rules !== undefined && alternativesOf(rules.access, operation).some((rule) => rule !== 'public')
    },
  }
}

/** The rule of `operation`; `deleted` exists only on soft-deleting tables, and falls back to `delete`. */
function alternativesOf(access: ResourceAccess, operation: AccessRequest): readonly AccessRule[] {
  return operation === 'deleted' ? (access.deleted ?? access.delete) : access[operation]
}

/**
 * Any alternative that grants the whole operation wins ({}); else `owner`
 * grants the caller's own rows; null when nothing grants it.
 */
function evaluate(
  alternatives: readonly AccessRule[],
  owner: OwnerRule | null,
  caller: Caller | null,
): RowFilter | null {
  let ownRows: RowFilter | null = null
  for (const rule of alternatives) {
    if (rule === 'public') return {}
    if (caller === null) continue
    if (rule === 'authenticated') return {}
    if (rule === 'owner') {
      const claim = owner ? claimOf(caller, owner) : null
      if (claim !== null) ownRows = { [owner!.field]: claim }
    } else if (
      (rule.scheme === null || rule.scheme === caller.scheme) &&
      rule.scopes.every((scope) => caller.scopes.has(scope))
    ) {
      return {}
    }
  }
  return ownRows
}

function ownerStamp(owner: OwnerRule | null, caller: Caller | null): Row {
  const claim = owner && caller ? claimOf(caller, owner) : null
  return claim === null ? {} : { [owner!.field]: claim }
}

/** The owner claim as stored: a string (a numeric `sub` is written in decimal); null when absent or from another scheme. */
function claimOf(caller: Caller, owner: OwnerRule): string | null {
  if (caller.scheme !== owner.scheme) return null
  const value = caller.claims[owner.claim]
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null
}

/** 401 without credentials; 403 with them, naming the scopes of the first rule that lists any. */
function refuse(auth: ApiAuth, alternatives: readonly AccessRule[], caller: Caller | null): ProblemError {
  if (caller === null) {
    return new ProblemError(
      'unauthenticated',
      `This operation needs credentials; send ${credentialsOf(auth.schemes)}.`,
      {
        headers: { 'www-authenticate': buildChallenge(auth.schemes) },
      },
    )
  }
  const needed = alternatives.find((rule): rule is Exclude<AccessRule, string> => typeof rule === 'object')
  const detail = needed
    ? `This operation needs the scope${needed.scopes.length === 1 ? '' : 's'} ${needed.scopes.join(', ')}${needed.scheme ? ` from scheme "${needed.scheme}"` : ''}.`
    : 'These credentials do not grant this operation.'
  return new ProblemError('forbidden', detail, {
    headers: {
      'www-authenticate': buildChallenge(auth.schemes, { code: 'insufficient_scope', scope: needed?.scopes ?? [] }),
    },
  })
}

/** The headers that carry the API's credentials, as a client sends them: the fix a 401 names. */
function credentialsOf(schemes: readonly AuthScheme[]): string {
  const bearer = schemes.some((scheme) => scheme.type === 'jwt') ? ['Authorization: Bearer <token>'] : []
  const keys = schemes.flatMap((scheme) => (scheme.type === 'api_key' ? [`${scheme.header}: <key>`] : []))
  return [...bearer, ...keys].join(' or ')
}
