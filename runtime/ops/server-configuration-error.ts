/**
 * What the server was given to start with cannot work: a malformed `keys_env`
 * variable, a Redis it cannot connect to. The message names the setting and
 * how to fix it; `serve` prints it as one line, not as a bug to report.
 */
export class ServerConfigurationError extends Error {
  override name = 'ServerConfigurationError'
}
