import type { AuthScheme } from '../contract/access-rule.js'

/**
 * `WWW-Authenticate` challenges, one per scheme, comma-separated as RFC 9110
 * §11.6.1 allows. `error` follows RFC 6750 §3 for bearer tokens; an API-key
 * scheme's challenge names the header to send.
 * https://www.rfc-editor.org/rfc/rfc6750#section-3
 */
export function buildChallenge(
  schemes: readonly AuthScheme[],
  error?: {
    readonly code: 'invalid_token' | 'insufficient_scope'
    readonly description?: string
    readonly scope?: readonly string[]
  },
): string {
  const bearer = schemes.some((scheme) => scheme.type === 'jwt')
  const challenges = bearer ? [`Bearer ${bearerParameters(error)}`] : []
  for (const scheme of schemes) {
    if (scheme.type === 'api_key') challenges.push(`ApiKey realm="api", header="${scheme.header}"`)
  }
  return challenges.join(', ')
}

function bearerParameters(error: Parameters<typeof buildChallenge>[1]): string {
  const parameters = ['realm="api"']
  if (error) parameters.push(`error="${error.code}"`)
  if (error?.description) parameters.push(`error_description="${error.description.replaceAll('"', "'")}"`)
  if (error?.scope && error.scope.length > 0) parameters.push(`scope="${error.scope.join(' ')}"`)
  return parameters.join(', ')
}
