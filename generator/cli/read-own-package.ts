import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/** What restmint's own package.json says: its version and the tools it is developed with. */
export interface OwnPackage {
  readonly version: string
  readonly devDependencies: Readonly<Record<string, string>>
}

/** restmint's own package.json, found through the package's self-reference (`restmint/package.json`). */
export function readOwnPackage(): OwnPackage {
  const path = createRequire(import.meta.url).resolve('restmint/package.json')
  const { version, devDependencies = {} } = JSON.parse(readFileSync(path, 'utf8')) as {
    version: string
    devDependencies?: Record<string, string>
  }
  return { version, devDependencies }
}
