import { createHash, timingSafeEqual } from 'node:crypto'
import type { ApiKeyScheme } from '../contract/access-rule.js'
import { ServerConfigurationError } from '../ops/server-configuration-error.js'
import type { Caller } from './caller.js'

interface StoredKey {
  readonly id: string
  readonly sha256: Buffer
  readonly scopes: ReadonlySet<string>
}

/**
 * The key verifier of an `api_key` scheme: the SHA-256 of the presented key
 * compared, in constant time, with every hash in `keys_env` (JSON
 * `[{ "id", "sha256", "scopes" }]`), so the server never holds a key itself.
 * Returns the caller, or null for an unknown key. An unset variable holds no
 * key; a malformed one throws at start-up, naming it.
 */
export function createApiKeyVerifier(
  scheme: ApiKeyScheme,
  env: Readonly<Record<string, string | undefined>>,
  warn: (message: string) => void,
): (presented: string) => Caller | null {
  const text = env[scheme.keysEnv]
  if (text === undefined) warn(`auth scheme "${scheme.name}": ${scheme.keysEnv} is not set, so it accepts no API key`)
  const keys = text === undefined ? [] : parseKeys(scheme, text)
  return (presented) => {
    const digest = createHash('sha256').update(presented).digest()
    // Every hash is compared, so the time taken does not tell which key came close.
    let found: StoredKey | null = null
    for (const key of keys) if (timingSafeEqual(digest, key.sha256) && found === null) found = key
    return found && { scheme: scheme.name, claims: { sub: found.id }, scopes: found.scopes }
  }
}

function parseKeys(scheme: ApiKeyScheme, text: string): StoredKey[] {
  const where = `auth scheme "${scheme.name}": ${scheme.keysEnv}`
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new ServerConfigurationError(
      `${where} is not JSON; set it to [{ "id": "…", "sha256": "<hex>", "scopes": [] }]`,
    )
  }
  if (!Array.isArray(parsed))
    throw new ServerConfigurationError(`${where} must be a JSON array of { id, sha256, scopes }`)
  return parsed.map((entry: unknown, index) => {
    const { id, sha256, scopes } = (entry ?? {}) as Record<string, unknown>
    const valid =
      typeof id === 'string' &&
      typeof sha256 === 'string' &&
      /^[0-9a-f]{64}$/i.test(sha256) &&
      (scopes === undefined || (Array.isArray(scopes) && scopes.every((scope) => typeof scope === 'string')))
    if (!valid) {
      throw new ServerConfigurationError(
        `${where}[${index}] must be { "id": string, "sha256": 64 hex digits, "scopes": [strings] }`,
      )
    }
    return { id, sha256: Buffer.from(sha256, 'hex'), scopes: new Set((scopes as string[] | undefined) ?? []) }
  })
}
