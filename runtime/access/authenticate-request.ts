import { randomBytes } from 'node:crypto'
import type { Secret, VerifyOptions, VerifyPayloadType } from '@fastify/jwt'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type buildGetJwks from 'get-jwks'
import { DEFAULT_MAX_TTL_S, type AuthScheme, type JwtScheme } from '../contract/access-rule.js'
import { ProblemError } from '../problems/problem-error.js'
import { buildChallenge } from './auth-challenge.js'
import type { Caller } from './caller.js'
import { createJwksKeyFetcher, DEFAULT_JWKS_TIMEOUT_MS, type TokenHeader } from './create-jwks-key-fetcher.js'
import { createApiKeyVerifier } from './verify-api-key.js'

/** The caller a request's credentials name; null without credentials; a 401 when they do not verify. */
export type Authenticate = (request: FastifyRequest) => Promise<Caller | null>

/** How many verified tokens each scheme keeps (fast-jwt's cache), so a repeated token is not verified again. */
const VERIFIED_TOKEN_CACHE = 1000

/**
 * Registers one @fastify/jwt namespace per jwt scheme (fast-jwt underneath:
 * pinned algorithms, `iss` and `aud` required and checked, clock tolerance,
 * verified tokens cached; JWKS keys fetched by get-jwks and cached per key
 * id) and returns the authenticator. API keys are checked first, then a
 * bearer token against each jwt scheme in manifest order. Credentials that
 * fail are a 401 whatever the operation: never silently anonymous. A token
 * no scheme verified while a key set could not be read is a 503: the
 * server, not the token, is at fault.
 */
export async function registerAuthentication(
  app: FastifyInstance,
  schemes: readonly AuthScheme[],
  env: Readonly<Record<string, string | undefined>>,
  jwksTimeoutMs = DEFAULT_JWKS_TIMEOUT_MS,
): Promise<Authenticate> {
  const jwtSchemes = schemes.filter((scheme): scheme is JwtScheme => scheme.type === 'jwt')
  // Imported here, not at the top: bundled by serve, a module's package imports would move to the
  // bundle's top and load for every API, also those without `auth:` that never import this module.
  // get-jwks (with its PEM conversion, ~7% of serve's start) only for a scheme with a `jwks_url`.
  const [{ default: fastifyJwt }, getJwks] = await Promise.all([
    import('@fastify/jwt'),
    jwtSchemes.some((scheme) => scheme.jwksUrl !== null) ? import('get-jwks').then(({ default: get }) => get) : null,
  ])
  for (const scheme of jwtSchemes) {
    await app.register(fastifyJwt, {
      namespace: scheme.name,
      secret: resolveKey(scheme, env, getJwks, jwksTimeoutMs, (message) => app.log.warn(message)),
      // The key fetcher reads `kid` and `alg` from the header, which only a complete decode gives it.
      ...(scheme.jwksUrl === null ? {} : { decode: { complete: true } }),
      verify: {
        // The manifest schema allows only fast-jwt's algorithm names (and validation refuses `none`).
        algorithms: [...scheme.algorithms] as NonNullable<VerifyOptions['algorithms']>,
        allowedIss: scheme.issuer,
        allowedAud: scheme.audience,
        // A token without `exp` would be valid forever (RFC 8725 §3.10: validate every claim that bounds it).
        requiredClaims: ['iss', 'aud', 'exp'],
        clockTolerance: scheme.clockToleranceS * 1000,
        cache: VERIFIED_TOKEN_CACHE,
      },
    })
  }
  const apiKeys = schemes.flatMap((scheme) =>
    scheme.type === 'api_key'
      ? [
          {
            header: scheme.header.toLowerCase(),
            verify: createApiKeyVerifier(scheme, env, (message) => app.log.warn(message)),
            name: scheme.name,
          },
        ]
      : [],
  )
  const invalid = (description: string) =>
    new ProblemError('invalid_credentials', description, {
      headers: { 'www-authenticate': buildChallenge(schemes, { code: 'invalid_token', description }) },
    })
  return async (request) => {
    const presented = [
      ...apiKeys.filter((key) => request.headers[key.header] !== undefined).map((key) => key.header),
      ...(request.headers.authorization === undefined ? [] : ['authorization']),
    ]
    // Each credential must verify: one could otherwise hide a bad other (never silently anonymous, never half-checked).
    if (presented.length > 1) throw invalid(`Send one credential, not ${presented.join(' and ')} together.`)
    for (const key of apiKeys) {
      const presented = request.headers[key.header]
      if (presented === undefined) continue
      const caller = typeof presented === 'string' ? key.verify(presented) : null
      if (caller === null) throw invalid(`The ${key.header} header holds no known API key of scheme "${key.name}".`)
      return caller
    }
    const authorization = request.headers.authorization
    if (authorization === undefined) return null
    // The scheme name is case-insensitive (RFC 9110 §11.1), as @fastify/jwt reads it.
    if (!/^Bearer [^\s]+$/i.test(authorization) || jwtSchemes.length === 0) {
      throw invalid('The Authorization header must be "Bearer <token>".')
    }
    let failure = ''
    let unavailable: ProblemError | undefined
    for (const scheme of jwtSchemes) {
      try {
        const verify = (request as unknown as Record<string, () => Promise<VerifyPayloadType>>)[
          `${scheme.name}JwtVerify`
        ]!
        const claims = (await verify.call(request)) as Record<string, unknown>
        const refused = refuseClaims(claims, scheme, Date.now() / 1000)
        if (refused !== null) {
          failure ||= refused
          continue
        }
        return { scheme: scheme.name, claims, scopes: readScopes(claims[scheme.scopesClaim]) }
      } catch (error) {
        // @fastify/jwt passes on what the key fetcher threw: a key set that cannot be read.
        if (error instanceof ProblemError) unavailable ??= error
        else failure ||= describeFailure(error)
      }
    }
    throw unavailable ?? invalid(failure)
  }
}

/**
 * The HS* secret from its variable, or a JWKS key fetcher. An unset secret
 * fails closed: a random one nobody holds, so no token verifies (`serve`
 * fills in a development secret instead, and says so).
 */
function resolveKey(
  scheme: JwtScheme,
  env: Readonly<Record<string, string | undefined>>,
  /** Loaded when some scheme has a `jwks_url`. */
  getJwks: typeof buildGetJwks | null,
  jwksTimeoutMs: number,
  warn: (message: string) => void,
): Secret {
  if (scheme.jwksUrl !== null) {
    if (getJwks === null) throw new Error(`internal error: get-jwks not loaded for scheme "${scheme.name}"`)
    const fetchKey = createJwksKeyFetcher(getJwks, scheme.name, scheme.jwksUrl, jwksTimeoutMs, warn)
    // @fastify/jwt calls a secret function with (request, decoded token), as its README shows; its types say (decoded).
    return ((_request: FastifyRequest, token: { header: TokenHeader }) => fetchKey(token.header)) as unknown as Secret
  }
  const secret = env[scheme.secretEnv!]
  if (secret === undefined || secret === '') {
    warn(
      `auth scheme "${scheme.name}": ${scheme.secretEnv} is not set, so no token of this scheme verifies; ` +
        'set it to the shared HS secret (at least 32 random bytes)',
    )
    return randomBytes(32).toString('hex')
  }
  return secret
}

/**
 * What fast-jwt leaves to us (RFC 8725 §3.10: validate every claim that bounds a token): `sub`, when present,
 * is a non-empty string (a numeric `sub` would equal the string, an empty one would be an identity); a token
 * lives at most the scheme's `max_ttl_s`, counted from `iat` and from now (`exp: 1e308` never expires); and it
 * was not issued in the future. Null when the claims hold, else why not.
 */
function refuseClaims(claims: Record<string, unknown>, scheme: JwtScheme, now: number): string | null {
  const { sub, iat, exp } = claims
  if (sub !== undefined && (typeof sub !== 'string' || sub === '')) {
    return 'The token does not verify: its sub claim must be a non-empty string.'
  }
  const tolerance = scheme.clockToleranceS
  const maxTtl = scheme.maxTtlS ?? DEFAULT_MAX_TTL_S
  if (iat !== undefined && (typeof iat !== 'number' || iat > now + tolerance)) {
    return 'The token does not verify: its iat claim is in the future.'
  }
  const issued = typeof iat === 'number' ? iat : now
  if (typeof exp !== 'number' || exp - issued > maxTtl + tolerance || exp - now > maxTtl + tolerance) {
    return `The token does not verify: it may live at most ${maxTtl} s (exp - iat), as auth scheme "${scheme.name}" allows.`
  }
  return null
}

/** A space-separated string (RFC 8693 `scope`) or an array of strings. */
function readScopes(value: unknown): ReadonlySet<string> {
  if (typeof value === 'string') return new Set(value.split(' ').filter((scope) => scope !== ''))
  if (Array.isArray(value)) return new Set(value.filter((scope): scope is string => typeof scope === 'string'))
  return new Set()
}

/** @fastify/jwt's and fast-jwt's messages say what failed (expired, wrong `aud`…) without echoing the token. */
function describeFailure(error: unknown): string {
  const code = (error as { code?: string }).code
  if (code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED') return 'The token has expired.'
  const message = error instanceof Error ? error.message : String(error)
  return `The token does not verify: ${message.replace(/\.$/, '')}.`
}
