// get-jwks is passed in, loaded by registerAuthentication only for an API with a jwks_url scheme.
import type buildGetJwks from 'get-jwks'
import { ProblemError } from '../problems/problem-error.js'

/** How long a JWKS request may take by default before the requests waiting on it answer 503. */
export const DEFAULT_JWKS_TIMEOUT_MS = 5_000

/** A token's header, as @fastify/jwt hands it to the key fetcher. */
export interface TokenHeader {
  readonly kid?: string
  readonly alg?: string
}

/**
 * The public key (PEM) for a token of the `jwks_url` scheme `scheme`, with get-jwks,
 * which caches keys per key id. A key id the set lacks rejects with
 * get-jwks's `JWK_NOT_FOUND` error (the token's fault: 401); a set that
 * cannot be read in `timeoutMs` (down, slow, an error, not JSON) is a 503.
 */
export function createJwksKeyFetcher(
  getJwks: typeof buildGetJwks,
  scheme: string,
  jwksUrl: string,
  timeoutMs: number,
  warn: (message: string) => void,
): (header: TokenHeader) => Promise<string> {
  const url = new URL(jwksUrl)
  const jwks = getJwks({ jwksPath: `${url.pathname}${url.search}`, providerDiscovery: false })
  const domain = `${url.origin}/`
  return async ({ kid = '', alg = '' }) => {
    try {
      return await withDeadline(jwks.getPublicKey({ domain, kid, alg }), timeoutMs)
    } catch (error) {
      if ((error as { code?: string }).code === 'JWK_NOT_FOUND') throw error
      warn(`auth scheme "${scheme}": ${jwksUrl} cannot be read: ${(error as Error).message}`)
      throw new ProblemError(
        'service_unavailable',
        `The keys of auth scheme "${scheme}" cannot be read right now, so its tokens cannot be verified; retry later.`,
        { headers: { 'retry-after': String(Math.ceil(timeoutMs / 1000)) } },
      )
    }
  }
}

/**
 * The key, or a rejection once `ms` have passed: get-jwks's own `timeout`
 * option is lost on Node's fetch, so a JWKS server that never answers would
 * otherwise hold every request waiting on it.
 */
async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, deadline])
  } finally {
    clearTimeout(timer)
  }
}
