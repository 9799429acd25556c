import { DEFAULT_MAX_TTL_S } from '../../runtime/contract/access-rule.js'
import { UserError } from '../diagnostics/diagnostic.js'
import { loadProject } from '../load-project.js'
import { buildAuthSchemes } from '../model/build-access.js'
import type { CliIo } from './cli-io.js'
import { DEVELOPMENT_SECRETS_FILE, readDevelopmentSecrets } from './development-secrets.js'
import { reportDiagnostics } from './report-diagnostics.js'
import { signJwt } from './sign-jwt.js'

export interface TokenOptions {
  readonly manifest: string
  readonly scheme: string
  readonly sub: string
  readonly scope?: string
  readonly ttl: string
}

/**
 * Prints a development JWT for a `secret_env` scheme of the manifest: its
 * issuer and audience, `sub`, the scopes in its scopes claim, valid for
 * `ttl` seconds, signed with the variable's value or else the development
 * secret `serve` generated. JWKS schemes are refused: their issuer holds the
 * private key.
 */
export async function runToken(options: TokenOptions, io: CliIo): Promise<number> {
  const project = await loadProject(io.cwd, options.manifest)
  const { manifest, diagnostics } = await project.validated()
  if (manifest === null) {
    reportDiagnostics({ diagnostics, sources: project.sources, files: null }, options.manifest, io)
    return 1
  }
  const schemes = buildAuthSchemes(manifest)
  const scheme = schemes.find((candidate) => candidate.name === options.scheme)
  const jwtNames = schemes.filter((candidate) => candidate.type === 'jwt').map((candidate) => candidate.name)
  if (scheme === undefined || scheme.type !== 'jwt') {
    const known =
      jwtNames.length > 0 ? `its jwt schemes: ${jwtNames.join(', ')}` : 'it has no jwt scheme (auth.schemes)'
    const what = scheme === undefined ? 'has no scheme' : 'has an api_key scheme, not a jwt one, named'
    throw new UserError(`${options.manifest} ${what} "${options.scheme}"; ${known}`)
  }
  if (scheme.secretEnv === null) {
    throw new UserError(
      `scheme "${scheme.name}" verifies tokens with the keys of ${scheme.jwksUrl} (jwks_url): only its issuer, ` +
        `${scheme.issuer}, holds the private key, so restmint cannot mint them; get a token from the issuer`,
    )
  }
  const secret = process.env[scheme.secretEnv] ?? readDevelopmentSecrets(io.cwd)[scheme.secretEnv]
  if (secret === undefined) {
    throw new UserError(
      `${scheme.secretEnv} is not set and ${DEVELOPMENT_SECRETS_FILE} has no development secret for it; ` +
        `set ${scheme.secretEnv}, or run \`restmint serve\` once to create one`,
    )
  }
  if (!/^[1-9]\d*$/.test(options.ttl)) {
    throw new UserError(`--ttl must be a whole number of seconds, not ${JSON.stringify(options.ttl)}`)
  }
  const maxTtl = scheme.maxTtlS ?? DEFAULT_MAX_TTL_S
  if (Number(options.ttl) > maxTtl) {
    throw new UserError(
      `--ttl ${options.ttl} is longer than auth scheme "${scheme.name}" lets a token live (${maxTtl} s), ` +
        `so the server would refuse the token; pass --ttl ${maxTtl} or less`,
    )
  }
  if (options.sub === '') throw new UserError('--sub must name the caller: a non-empty subject, e.g. --sub alice')
  const issuedAt = Math.floor(Date.now() / 1000)
  const token = signJwt(
    {
      iss: scheme.issuer,
      aud: scheme.audience,
      sub: options.sub,
      [scheme.scopesClaim]: options.scope ?? '',
      iat: issuedAt,
      exp: issuedAt + Number(options.ttl),
    },
    { alg: 'HS256', secret },
  )
  io.stdout(`${token}\n`)
  return 0
}
