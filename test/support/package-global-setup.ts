import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { betterSqlitePrebuild } from './better-sqlite-prebuild.js'
import { copyCheckout } from './copy-checkout.js'
import { expectSuccess, runCommand } from './run-command.js'

/** The package `npm pack` made of a copy of this checkout, once per packaging run. */
export interface PackedPackage {
  /** The tarball's path. */
  readonly tarball: string
  /** Every path it holds, sorted. */
  readonly files: readonly string[]
  /** Whether the checkout had a README.md to pack. */
  readonly readme: boolean
  /** The environment that lets better-sqlite3's install script find this checkout's addon (betterSqlitePrebuild). */
  readonly installEnv: NodeJS.ProcessEnv
}

declare module 'vitest' {
  export interface ProvidedContext {
    packedPackage: PackedPackage
  }
}

/**
 * Vitest global setup of the packaging tests: packs a copy of this checkout
 * (as a fresh clone has it) once, for every test that installs the tarball:
 * `prepack` compiles dist/ afresh, about a minute.
 */
export default async function packCheckout(project: TestProject): Promise<() => Promise<void>> {
  const packDir = await mkdtemp(join(tmpdir(), 'restmint-pack-'))
  const [checkout, installEnv] = await Promise.all([copyCheckout(), betterSqlitePrebuild(join(packDir, 'prebuilds'))])
  // A file no source compiles to any more: `prepack` must start dist/ afresh, so it is not packed.
  await mkdir(join(checkout, 'dist/generator'), { recursive: true })
  await writeFile(join(checkout, 'dist/generator/deleted-source.js'), 'export {}\n')

  // --json lists what went in.
  const readme = existsSync(join(checkout, 'README.md'))
  const pack = await runCommand('npm', ['pack', '--json', '--pack-destination', packDir], checkout, {
    timeout: 300_000,
  })
  expectSuccess(pack, 'npm pack')
  const report = JSON.parse(pack.stdout.slice(pack.stdout.search(/^\[/m))) as {
    filename: string
    files: { path: string }[]
  }[]
  const packed = report[0]
  if (packed === undefined) throw new Error(`npm pack reported nothing:\n${pack.stdout}`)
  const files = packed.files.map((file) => file.path).sort()
  project.provide('packedPackage', { tarball: join(packDir, packed.filename), files, readme, installEnv })
  return async () => {
    await Promise.all([packDir, dirname(checkout)].map((dir) => rm(dir, { recursive: true, force: true })))
  }
}
