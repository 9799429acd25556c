import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, mkdtemp, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/**
 * A copy of this checkout as a fresh clone has it (the files git tracks, and
 * new ones it does not ignore, so uncommitted work is tested too; no `dist/`),
 * with `node_modules` linked to this checkout's installed dependencies rather
 * than installed again. Returns its directory, inside a new temporary one.
 */
export async function copyCheckout(): Promise<string> {
  const checkout = join(await mkdtemp(join(tmpdir(), 'restmint-checkout-')), 'restmint')
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  })
  // `node_modules` may be a link (to a shared install), which git lists as an untracked file;
  // a tracked file deleted in the work tree is not in a clone of it either.
  const files = listed
    .split('\0')
    .filter((path) => path !== '' && path !== 'node_modules' && existsSync(join(REPO, path)))
  for (const directory of new Set(files.map((path) => dirname(join(checkout, path))))) {
    await mkdir(directory, { recursive: true })
  }
  await Promise.all(files.map((path) => copyFile(join(REPO, path), join(checkout, path))))
  await symlink(join(REPO, 'node_modules'), join(checkout, 'node_modules'))
  return checkout
}
