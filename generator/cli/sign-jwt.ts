import { createHmac, sign, type KeyObject } from 'node:crypto'

/**
 * A compact JWS (RFC 7515) over `payload`: HS256 with a shared secret, or
 * RS256 with a private key. For `restmint token` (development tokens) and
 * tests; the server only verifies, with @fastify/jwt.
 */
export function signJwt(
  payload: Readonly<Record<string, unknown>>,
  key:
    | { readonly alg: 'HS256'; readonly secret: string }
    | { readonly alg: 'RS256'; readonly privateKey: KeyObject; readonly kid: string },
): string {
  const header = key.alg === 'HS256' ? { alg: 'HS256', typ: 'JWT' } : { alg: 'RS256', typ: 'JWT', kid: key.kid }
  const signingInput = `${encodePart(header)}.${encodePart(payload)}`
  const signature =
    key.alg === 'HS256'
      ? createHmac('sha256', key.secret).update(signingInput).digest()
      : sign('sha256', Buffer.from(signingInput), key.privateKey)
  return `${signingInput}.${signature.toString('base64url')}`
}

/** One base64url-encoded JSON part of a token. */
export function encodePart(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}
