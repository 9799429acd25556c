import { dirname, resolve } from 'node:path'

/** Where the manifest's `app:` module is: relative to the manifest, not to the working directory. */
export function resolveAppModule(cwd: string, manifestFile: string, appModule: string): string {
  return resolve(dirname(resolve(cwd, manifestFile)), appModule)
}
