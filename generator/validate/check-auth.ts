import { asRecord } from '../manifest/as-record.js'
import type { ManifestPath } from '../manifest/source-ranges.js'
import type { CheckContext } from './check-context.js'
import { RESERVED_QUERY_NAMES } from '../../runtime/contract/query-rules.js'
import { hintUnknownName } from './describe-value.js'
import { listResourceFields } from './list-resource-fields.js'

/** The keys each scheme type takes beyond `type`; the schema knows them all, not which type owns which. */
const SCHEME_KEYS = {
  jwt: ['secret_env', 'jwks_url', 'issuer', 'audience', 'algorithms', 'scopes_claim', 'clock_tolerance_s', 'max_ttl_s'],
  api_key: ['header', 'keys_env'],
} as const

const REQUIRED_KEYS = { jwt: ['issuer', 'audience', 'algorithms'], api_key: ['header', 'keys_env'] } as const

/**
 * `auth.schemes`: AUTH_SCHEME_OPTIONS (keys of the other type, required keys
 * missing), AUTH_KEY_SOURCE (exactly one of secret_env and jwks_url),
 * AUTH_ALGORITHM_NONE, AUTH_ALGORITHM_MIX (HS* with asymmetric algorithms, or
 * algorithms the key source cannot verify).
 */
export function checkAuth(context: CheckContext, data: unknown): void {
  const schemes = asRecord(asRecord(asRecord(data)?.auth)?.schemes) ?? {}
  for (const [name, value] of Object.entries(schemes)) {
    const scheme = asRecord(value)
    const type = scheme?.type
    if (scheme === null || (type !== 'jwt' && type !== 'api_key')) continue
    const path = ['auth', 'schemes', name]
    const other = type === 'jwt' ? 'api_key' : 'jwt'
    for (const key of SCHEME_KEYS[other]) {
      if (key in scheme) {
        context.report(
          'AUTH_SCHEME_OPTIONS',
          `${key} belongs to schemes of type ${other}, and scheme "${name}" is of type ${type}; remove it`,
          context.atKey([...path, key]),
        )
      }
    }
    const missing = REQUIRED_KEYS[type].filter((key) => !(key in scheme))
    if (missing.length > 0) {
      context.report(
        'AUTH_SCHEME_OPTIONS',
        `scheme "${name}" of type ${type} needs ${missing.join(', ')}; add ${missing.length === 1 ? 'it' : 'them'}`,
        context.atKey(path),
      )
    }
    if (type === 'jwt') checkJwtKeys(context, name, scheme, path)
  }
}

function checkJwtKeys(
  context: CheckContext,
  name: string,
  scheme: Readonly<Record<string, unknown>>,
  path: string[],
): void {
  const hasSecret = 'secret_env' in scheme
  const hasJwks = 'jwks_url' in scheme
  if (hasSecret && hasJwks) {
    context.report(
      'AUTH_KEY_SOURCE',
      `scheme "${name}" gives both secret_env and jwks_url; keep secret_env for HS* algorithms or jwks_url for RS*/ES*/PS*, not both`,
      context.atKey([...path, 'jwks_url']),
    )
  } else if (!hasSecret && !hasJwks) {
    context.report(
      'AUTH_KEY_SOURCE',
      `scheme "${name}" of type jwt needs secret_env (HS* algorithms) or jwks_url (RS*/ES*/PS*); add one`,
      context.atKey(path),
    )
  }
  const algorithms = Array.isArray(scheme.algorithms) ? scheme.algorithms.filter((a) => typeof a === 'string') : []
  const noneAt = algorithms.indexOf('none')
  if (noneAt >= 0) {
    context.report(
      'AUTH_ALGORITHM_NONE',
      `scheme "${name}" accepts algorithm none, which accepts unsigned tokens from anyone; remove it`,
      context.atValue([...path, 'algorithms', noneAt]),
    )
  }
  const signed = algorithms.filter((algorithm) => algorithm !== 'none')
  const shared = signed.filter((algorithm) => algorithm.startsWith('HS'))
  const at = context.atValue([...path, 'algorithms'])
  if (shared.length > 0 && shared.length < signed.length) {
    context.report(
      'AUTH_ALGORITHM_MIX',
      `scheme "${name}" mixes HS* (${shared.join(', ')}) with asymmetric algorithms (${signed.filter((a) => !shared.includes(a)).join(', ')}): a public key would then verify HMAC tokens anyone could sign; declare one kind per scheme`,
      at,
    )
  } else if (hasSecret !== hasJwks && signed.length > 0) {
    const wrong = hasSecret ? shared.length === 0 : shared.length > 0
    if (wrong) {
      context.report(
        'AUTH_ALGORITHM_MIX',
        hasSecret
          ? `scheme "${name}" has secret_env, which verifies HS* algorithms only, but lists ${signed.join(', ')}; use HS256 (or jwks_url for asymmetric keys)`
          : `scheme "${name}" has jwks_url, whose public keys verify RS*/ES*/PS* algorithms only, but lists ${signed.join(', ')}; use RS256 or ES256 (or secret_env for HS*)`,
        at,
      )
    }
  }
}

/**
 * Each resource's `owner` and `access`: OWNER_WITHOUT_AUTH and
 * ACCESS_WITHOUT_AUTH when there is no `auth:` (no rule could ever be met),
 * ACCESS_OWNER_UNDECLARED (`owner` on a resource without `owner:`),
 * ACCESS_DELETED_WITHOUT_SOFT_DELETE (`deleted` without `soft_delete: true`),
 * AUTH_SCHEME_UNKNOWN (a rule naming a scheme `auth.schemes` lacks), OWNER_FIELD.
 */
export function checkAccess(context: CheckContext, data: unknown): void {
  const root = asRecord(data)
  const auth = asRecord(root?.auth)
  const schemeNames = Object.keys(asRecord(auth?.schemes) ?? {})
  for (const [resourceName, value] of Object.entries(asRecord(root?.resources) ?? {})) {
    const resource = asRecord(value)
    if (resource === null) continue
    const path = ['resources', resourceName]
    if (auth === null && 'owner' in resource) {
      context.report(
        'OWNER_WITHOUT_AUTH',
        `resource "${resourceName}" has owner:, but the manifest has no auth: section to take the claim from; add auth.schemes`,
        context.atKey([...path, 'owner']),
      )
    }
    if (asRecord(resource.access)?.deleted !== undefined && resource.soft_delete !== true) {
      context.report(
        'ACCESS_DELETED_WITHOUT_SOFT_DELETE',
        `access.deleted of resource "${resourceName}" has no effect: it says who may see and restore soft-deleted records, and "${resourceName}" deletes for good; add soft_delete: true, or remove it`,
        context.atKey([...path, 'access', 'deleted']),
      )
    }
    checkOwnerField(context, root?.resources, resourceName, asRecord(resource.owner))
    if (auth !== null) checkOwnerScheme(context, resourceName, asRecord(resource.owner), schemeNames)
    const rules: [label: string, at: ManifestPath, rule: unknown][] = Object.entries(
      asRecord(resource.access) ?? {},
    ).map(([operation, rule]) => [`access.${operation}`, [...path, 'access', operation], rule])
    for (const [name, operation] of Object.entries(asRecord(resource.operations) ?? {})) {
      const rule = asRecord(operation)?.access
      if (rule !== undefined) rules.push([`operation "${name}"`, [...path, 'operations', name, 'access'], rule])
    }
    if (rules.length === 0) continue
    if (auth === null) {
      const at = 'access' in resource ? [...path, 'access'] : rules[0]![1]
      context.report(
        'ACCESS_WITHOUT_AUTH',
        `resource "${resourceName}" has access rules, but the manifest has no auth: section, so no caller could ever authenticate; add auth.schemes, or remove access`,
        context.atKey(at),
      )
      continue
    }
    for (const [label, at, rule] of rules) checkRule(context, resourceName, resource, schemeNames, label, at, rule)
  }
}

/** One access rule (a keyword, scopes, or a list of them) of a resource or of one of its operations. */
function checkRule(
  context: CheckContext,
  resourceName: string,
  resource: Readonly<Record<string, unknown>>,
  schemeNames: readonly string[],
  label: string,
  path: ManifestPath,
  rule: unknown,
): void {
  const alternatives = Array.isArray(rule) ? rule.map((item, index) => [item, index] as const) : [[rule, null] as const]
  for (const [alternative, index] of alternatives) {
    const at = index === null ? path : [...path, index]
    if (alternative === 'owner' && !('owner' in resource)) {
      context.report(
        'ACCESS_OWNER_UNDECLARED',
        `${label} of resource "${resourceName}" allows owner, but "${resourceName}" declares no owner:; add owner: { field: owner_sub, claim: sub }`,
        context.atValue(at),
      )
    }
    const scheme = asRecord(alternative)?.scheme
    if (typeof scheme === 'string' && !schemeNames.includes(scheme)) {
      context.report(
        'AUTH_SCHEME_UNKNOWN',
        `${label} of resource "${resourceName}" names scheme ${JSON.stringify(scheme)}, which is not in auth.schemes${hintUnknownName(scheme, schemeNames, 'declared schemes')}`,
        context.atValue([...at, 'scheme']),
      )
    }
  }
}

/**
 * OWNER_SCHEME: with several schemes, `owner` names the one whose claim
 * identifies owners, since the same `sub` from another issuer, or an API key
 * of that id, is someone else; AUTH_SCHEME_UNKNOWN when it names none of them.
 */
function checkOwnerScheme(
  context: CheckContext,
  resourceName: string,
  owner: Readonly<Record<string, unknown>> | null,
  schemeNames: readonly string[],
): void {
  if (owner === null) return
  const scheme = owner.scheme
  if (typeof scheme === 'string') {
    if (!schemeNames.includes(scheme)) {
      context.report(
        'AUTH_SCHEME_UNKNOWN',
        `owner of resource "${resourceName}" names scheme ${JSON.stringify(scheme)}, which is not in auth.schemes${hintUnknownName(scheme, schemeNames, 'declared schemes')}`,
        context.atValue(['resources', resourceName, 'owner', 'scheme']),
      )
    }
    return
  }
  if (schemeNames.length > 1) {
    context.report(
      'OWNER_SCHEME',
      `owner of resource "${resourceName}" names no scheme, but auth has ${schemeNames.length} (${schemeNames.join(', ')}): the same ${String(owner.claim)} from another of them is someone else; add scheme: ${schemeNames[0]} (or the scheme whose callers own these rows)`,
      context.atKey(['resources', resourceName, 'owner']),
    )
  }
}

/** OWNER_FIELD: the owner field is a new lower_snake_case column, not one the resource already has. */
function checkOwnerField(
  context: CheckContext,
  resources: unknown,
  resourceName: string,
  owner: Readonly<Record<string, unknown>> | null,
): void {
  const field = owner?.field
  if (typeof field !== 'string') return
  const at = context.atValue(['resources', resourceName, 'owner', 'field'])
  if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(field)) {
    context.report(
      'OWNER_FIELD',
      `owner field ${JSON.stringify(field)} of resource "${resourceName}" is not lower_snake_case; name it like owner_sub`,
      at,
    )
    return
  }
  // The fields it would have without its owner: listResourceFields counts the owner field itself.
  const all = asRecord(resources) ?? {}
  const withoutOwner = { ...all, [resourceName]: { ...asRecord(all[resourceName]), owner: undefined } }
  const taken = listResourceFields(withoutOwner, resourceName).map((existing) => existing.name)
  if (taken.includes(field) || (RESERVED_QUERY_NAMES as readonly string[]).includes(field)) {
    context.report(
      'OWNER_FIELD',
      `owner field "${field}" of resource "${resourceName}" is already a field or query parameter of it; the owner field is a column of its own, server-managed: pick another name, like owner_sub`,
      at,
    )
  }
}
