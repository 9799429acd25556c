import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { AuthScheme } from '../../runtime/contract/access-rule.js'

/** Where `serve` keeps development secrets, next to the development database; `restmint token` signs with them. */
export const DEVELOPMENT_SECRETS_FILE = join('data', 'development-secrets.json')

/** The secrets `serve` generated earlier, by variable name; empty when there are none. */
export function readDevelopmentSecrets(cwd: string): Record<string, string> {
  const path = join(cwd, DEVELOPMENT_SECRETS_FILE)
  if (!existsSync(path)) return {}
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>
}

/**
 * The environment `serve` hands the API, for development without set-up:
 * each jwt scheme's `secret_env` that is unset takes a random secret kept in
 * data/development-secrets.json (mode 0600, reused on the next start), each
 * unset `keys_env` no keys. Returns the notes to print, one per variable filled.
 */
export function withDevelopmentSecrets(
  schemes: readonly AuthScheme[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): { env: Record<string, string | undefined>; notes: string[] } {
  const filled: Record<string, string | undefined> = { ...env }
  const notes: string[] = []
  const secrets = readDevelopmentSecrets(cwd)
  let changed = false
  for (const scheme of schemes) {
    if (scheme.type === 'api_key') {
      if (env[scheme.keysEnv] !== undefined) continue
      filled[scheme.keysEnv] = '[]'
      notes.push(`${scheme.keysEnv} is not set: scheme "${scheme.name}" accepts no API key`)
      continue
    }
    if (scheme.secretEnv === null || env[scheme.secretEnv] !== undefined) continue
    if (secrets[scheme.secretEnv] === undefined) {
      secrets[scheme.secretEnv] = randomBytes(32).toString('base64url')
      changed = true
    }
    filled[scheme.secretEnv] = secrets[scheme.secretEnv]
    notes.push(
      `${scheme.secretEnv} is not set: scheme "${scheme.name}" verifies with a development secret kept in ` +
        `${DEVELOPMENT_SECRETS_FILE}; mint a token with \`npx restmint token --scheme ${scheme.name} --sub alice --scope "…"\``,
    )
  }
  if (changed) {
    const path = join(cwd, DEVELOPMENT_SECRETS_FILE)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 })
    // writeFileSync's mode applies only to a file it creates.
    chmodSync(path, 0o600)
  }
  return { env: filled, notes }
}
