import { copyFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { REPO } from './copy-checkout.js'

/** The scripts tests start as processes of their own, and what they import besides generator/ and runtime/. */
const PROCESS_SOURCES = [
  'test/support/cli-process.ts',
  'test/storage/prepare-instance.ts',
  'test/fixtures/shop-api/generated/schema.ts',
]

/**
 * Compiles generator/, runtime/ and the scripts tests start as processes
 * (PROCESS_SOURCES) file by file into `directory`, a folder directly under
 * the repository laid out like dist/ (so templates/ and package.json are
 * found above it); each script is at its path under the repository, .js for
 * .ts. A child process started on one runs the sources under test without a
 * TypeScript loader: tsx resolves and loads each of the CLI's modules through
 * its hooks, ~0.5 s of CPU per start that the tests spawning the CLI dozens
 * of times would pay again and again.
 */
export async function buildTestCli(directory: string): Promise<void> {
  const sources = [
    ...['generator', 'runtime'].flatMap((folder) => listTypeScript(join(REPO, folder))),
    ...PROCESS_SOURCES.map((path) => join(REPO, path)),
  ]
  await build({
    entryPoints: sources,
    outdir: directory,
    outbase: REPO,
    format: 'esm',
    platform: 'node',
    target: 'node20.11',
    tsconfig: join(REPO, 'tsconfig.json'),
    logLevel: 'silent',
  })
  // Imported by the manifest validator, and hashed into the generator's fingerprint, next to generator/.
  copyFileSync(join(REPO, 'manifest.schema.json'), join(directory, 'manifest.schema.json'))
}

function listTypeScript(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
    .map((path) => join(directory, path))
}
