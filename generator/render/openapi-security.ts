import type {
  AccessOperation,
  AccessRule,
  AuthScheme,
  OwnerRule,
  ResourceAccess,
} from '../../runtime/contract/access-rule.js'
import type { ApiModel, ResourceModel } from '../model/api-model.js'
import type { OperationVerb } from '../names/generated-names.js'
import type { OpenApiOperation, OpenApiResponse, OpenApiSecurityRequirement } from './openapi-objects.js'

/** The access rule each OpenAPI operation kind obeys: PUT and PATCH are both `update`. */
export const ACCESS_OPERATION_OF: Readonly<Record<OperationVerb, AccessOperation>> = {
  list: 'list',
  get: 'read',
  create: 'create',
  replace: 'update',
  update: 'update',
  delete: 'delete',
  // The aggregates read what the list reads.
  aggregate: 'list',
}

/**
 * `components.securitySchemes`: a bearer JWT per jwt scheme, an API key in
 * its header per api_key scheme.
 * https://spec.openapis.org/oas/v3.1.0#security-scheme-object
 */
export function buildSecuritySchemes(schemes: readonly AuthScheme[]): Record<string, object> {
  return Object.fromEntries(
    schemes.map((scheme) => [
      scheme.name,
      scheme.type === 'jwt'
        ? {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              `A JWT signed with ${scheme.algorithms.join(' or ')}` +
              `${scheme.jwksUrl ? ` by a key of ${scheme.jwksUrl}` : ''}, issued by ${scheme.issuer} for ${scheme.audience}; ` +
              `scopes in its \`${scheme.scopesClaim}\` claim.`,
          }
        : {
            type: 'apiKey',
            in: 'header',
            name: scheme.header,
            description: 'An API key issued by the operator; its scopes are set with it.',
          },
    ]),
  )
}

/** `Unauthorized` and `Forbidden`, with the `WWW-Authenticate` challenge; none without `auth:`. */
export function buildAuthResponses(
  model: ApiModel,
  problem: (description: string) => OpenApiResponse,
): Record<string, OpenApiResponse> {
  if (model.authSchemes.length === 0) return {}
  const challenge = (description: string): Pick<OpenApiResponse, 'headers'> => ({
    headers: { 'WWW-Authenticate': { description, required: true, schema: { type: 'string' } } },
  })
  return {
    Unauthorized: {
      ...problem(
        'Credentials are missing on an operation that needs them, or do not verify (expired, another issuer or ' +
          'audience, an algorithm not accepted, a bad signature, an unknown API key), whatever the operation.',
      ),
      ...challenge(
        '`Bearer realm="api"`, with `error="invalid_token"` when a token failed; the API-key challenge too.',
      ),
    },
    Forbidden: {
      ...problem(
        'The credentials verify but the rule refuses: scopes missing, or a record the caller may read but not change.',
      ),
      ...challenge('`Bearer realm="api", error="insufficient_scope", scope="…"` names the scopes needed.'),
    },
  }
}

/**
 * The operation with its `security` (`[]` when public; else one requirement
 * per way in, any of which suffices), 401 and 403, and `x-restmint-access`
 * when the owner rule limits it to the caller's own records.
 * https://spec.openapis.org/oas/v3.1.0#security-requirement-object
 */
export function secureOperation(
  operation: OpenApiOperation,
  resource: ResourceModel,
  verb: OperationVerb,
  model: ApiModel,
): OpenApiOperation {
  if (resource.access === null) return operation
  return secureWithRules(operation, resource.access[ACCESS_OPERATION_OF[verb]], resource.owner, model)
}

/** secureOperation for an operation's own alternatives (a custom operation's `access`), `owner` meaning `owner`'s rows. */
export function secureWithRules(
  operation: OpenApiOperation,
  rules: readonly AccessRule[],
  ownerRule: OwnerRule | null,
  model: ApiModel,
): OpenApiOperation {
  const isPublic = rules.includes('public')
  const owner = ownerRule !== null && rules.includes('owner') ? ownerRule : null
  const responses = { ...operation.responses, 401: { $ref: '#/components/responses/Unauthorized' } }
  if (!isPublic) Object.assign(responses, { 403: { $ref: '#/components/responses/Forbidden' } })
  return {
    ...operation,
    security: isPublic ? [] : buildRequirements(rules, model.authSchemes),
    responses: sortResponses(responses),
    ...(owner ? { 'x-restmint-access': { rules: rules.map(describeRule), owner } } : {}),
  }
}

function buildRequirements(rules: readonly AccessRule[], schemes: readonly AuthScheme[]): OpenApiSecurityRequirement[] {
  const requirements = rules.flatMap((rule) =>
    typeof rule === 'string'
      ? schemes.map((scheme) => ({ [scheme.name]: [] as string[] }))
      : (rule.scheme === null ? schemes : schemes.filter((scheme) => scheme.name === rule.scheme)).map((scheme) => ({
          [scheme.name]: [...rule.scopes],
        })),
  )
  const seen = new Set<string>()
  return requirements.filter((requirement) => {
    const key = JSON.stringify(requirement)
    return !seen.has(key) && seen.add(key)
  })
}

function describeRule(rule: AccessRule): string | { scopes: readonly string[]; scheme?: string } {
  return typeof rule === 'string' ? rule : { scopes: rule.scopes, ...(rule.scheme ? { scheme: rule.scheme } : {}) }
}

/** Responses in status order, as the other operations list them. */
function sortResponses(responses: OpenApiOperation['responses']): OpenApiOperation['responses'] {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)))
}

/** Whether a GET answer may differ by caller: then it is `Cache-Control: private` and varies on Authorization. */
export function readDependsOnCaller(access: ResourceAccess | null, verb: OperationVerb, includes: boolean): boolean {
  if (access === null) return false
  return includes || access[ACCESS_OPERATION_OF[verb]].some((rule) => rule !== 'public')
}
