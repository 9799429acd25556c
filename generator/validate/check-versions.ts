import { asRecord } from '../manifest/as-record.js'
import type { CheckContext } from './check-context.js'

export const VERSION_NAME = /^v[1-9][0-9]*$/

/** VERSION_NAME: each version is a path prefix `/v<major>`; reported at the key. */
export function checkVersions(context: CheckContext, data: unknown): void {
  const versions = asRecord(asRecord(data)?.versions)
  if (versions === null) return
  for (const name of Object.keys(versions)) {
    if (VERSION_NAME.test(name)) continue
    const major = /[1-9][0-9]*/.exec(name)?.[0]
    const hint = major === undefined ? '' : `; did you mean "v${major}"?`
    context.report(
      'VERSION_NAME',
      `version ${JSON.stringify(name)} must be named v<major> (v1, v2, ...): it becomes the path prefix of every route${hint}`,
      context.atKey(['versions', name]),
    )
  }
}
