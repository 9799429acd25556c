import {
  ACCESS_OPERATIONS,
  type AccessRule,
  type AuthScheme,
  type ResourceAccess,
} from '../../runtime/contract/access-rule.js'
import type { Manifest, ManifestAccessAlternative, ManifestAccessRule, ManifestResource } from '../manifest/manifest.js'

/** `auth.schemes` in manifest order, every default filled in; empty without `auth:`. */
export function buildAuthSchemes(manifest: Manifest): AuthScheme[] {
  return Object.entries(manifest.auth?.schemes ?? {}).map(([name, scheme]) =>
    scheme.type === 'api_key'
      ? { name, type: 'api_key', header: scheme.header!, keysEnv: scheme.keys_env! }
      : {
          name,
          type: 'jwt',
          secretEnv: scheme.secret_env ?? null,
          jwksUrl: scheme.jwks_url ?? null,
          issuer: scheme.issuer!,
          audience: scheme.audience!,
          algorithms: scheme.algorithms!,
          scopesClaim: scheme.scopes_claim ?? 'scope',
          clockToleranceS: scheme.clock_tolerance_s ?? 0,
          ...(scheme.max_ttl_s === undefined ? {} : { maxTtlS: scheme.max_ttl_s }),
        },
  )
}

/**
 * Every operation's alternatives: its own rule, else `all`, else
 * `auth.default` (public when unset); on a soft-deleting resource also
 * `deleted`, whose rule falls back to `delete`'s. Null without `auth:`: everything is public.
 */
export function buildResourceAccess(resource: ManifestResource, manifest: Manifest): ResourceAccess | null {
  if (manifest.auth === undefined) return null
  const fallback = manifest.auth.default ?? 'public'
  const declared = resource.access ?? {}
  const alternatives = (rule: ManifestAccessRule) => (Array.isArray(rule) ? rule : [rule]).map(normalizeAlternative)
  const access = Object.fromEntries(
    ACCESS_OPERATIONS.map((operation) => [operation, alternatives(declared[operation] ?? declared.all ?? fallback)]),
  ) as Record<(typeof ACCESS_OPERATIONS)[number], AccessRule[]>
  // Who may delete a record may see it deleted and bring it back, unless `deleted` says otherwise.
  if (resource.soft_delete !== true) return access
  return { ...access, deleted: alternatives(declared.deleted ?? declared.delete ?? declared.all ?? fallback) }
}

/** One alternative as the runtime holds it: a keyword, or scopes with their scheme (null: any). */
export function normalizeAlternative(alternative: ManifestAccessAlternative): AccessRule {
  return typeof alternative === 'string'
    ? alternative
    : { scopes: alternative.scopes, scheme: alternative.scheme ?? null }
}
