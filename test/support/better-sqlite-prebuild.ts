import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { REPO } from './copy-checkout.js'

/**
 * Packs the better-sqlite3 addon this checkout built into a directory, under the
 * name its install script (prebuild-install) looks for, and returns the
 * environment that points the script there. When npm resolves another version
 * than this checkout's, the name does not match and the script compiles as usual.
 */
export async function betterSqlitePrebuild(directory: string): Promise<NodeJS.ProcessEnv> {
  const installed = join(REPO, 'node_modules/better-sqlite3')
  const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string }
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`
  await mkdir(directory, { recursive: true })
  await promisify(execFile)('tar', [
    '-czf',
    join(directory, name),
    '-C',
    installed,
    'build/Release/better_sqlite3.node',
  ])
  return { npm_config_better_sqlite3_local_prebuilds: directory }
}
