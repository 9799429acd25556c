import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import esbuildPackage from 'esbuild/package.json' with { type: 'json' }
import { REPO } from './copy-checkout.js'

/** The scripts tests start as processes of their own, and what they import besides generator/ and runtime/. */
const PROCESS_SOURCES = [
  'test/support/cli-process.ts',
  'test/storage/prepare-instance.ts',
  'test/fixtures/shop-api/generated/schema.ts',
]

/** Besides the sources: what else decides the compiled output. */
const BUILD_INPUTS = ['manifest.schema.json', 'tsconfig.json', 'test/support/build-test-cli.ts']

/** Prefix of the build directories, directly under test/ (git ignores test/tmp-*). */
const BUILD_PREFIX = 'tmp-cli-'

/**
 * Compiles generator/, runtime/ and the scripts tests start as processes
 * (PROCESS_SOURCES) file by file into a directory under test/ laid out like
 * dist/ (so templates/ and package.json are found above it); each script is
 * at its path under the repository, .js for .ts. Returns the directory. A
 * child process started on one runs the sources under test without a
 * TypeScript loader: tsx resolves and loads each of the CLI's modules through
 * its hooks, ~0.5 s of CPU per start that the tests spawning the CLI dozens
 * of times would pay again and again.
 *
 * The directory is named after a hash of everything compiled into it, and
 * kept: the next run of unchanged sources reuses it, and so do the caches
 * keyed by the code a child runs (the generator's fingerprint of whole
 * generate results, the serve bundles), which hash its files and their paths.
 * In a directory of a new name each run, every child's first generate of a
 * manifest ran every stage and formatter again, and every serve bundled again.
 */
export async function buildTestCli(): Promise<string> {
  const sources = [
    ...['generator', 'runtime'].flatMap((folder) => listTypeScript(join(REPO, folder))),
    ...PROCESS_SOURCES.map((path) => join(REPO, path)),
  ]
  const hash = createHash('sha256').update(esbuildPackage.version)
  for (const file of [...sources, ...BUILD_INPUTS.map((path) => join(REPO, path))]) {
    hash.update(`${file}\0`).update(readFileSync(file)).update('\0')
  }
  const directory = join(REPO, 'test', `${BUILD_PREFIX}${hash.digest('hex').slice(0, 16)}`)
  if (existsSync(directory)) return directory
  // Built beside it and renamed into place, so a run started meanwhile never sees half a build.
  const staged = mkdtempSync(join(REPO, 'test', `${BUILD_PREFIX}staged-`))
  try {
    await build({
      entryPoints: sources,
      outdir: staged,
      outbase: REPO,
      format: 'esm',
      platform: 'node',
      target: 'node20.11',
      tsconfig: join(REPO, 'tsconfig.json'),
      logLevel: 'silent',
    })
    // Imported by the manifest validator, and hashed into the generator's fingerprint, next to generator/.
    copyFileSync(join(REPO, 'manifest.schema.json'), join(staged, 'manifest.schema.json'))
    removeOtherBuilds()
    renameSync(staged, directory)
  } catch (error) {
    // Another run renamed the same build into place first.
    if (!existsSync(directory)) throw error
  } finally {
    rmSync(staged, { recursive: true, force: true })
  }
  return directory
}

/**
 * Builds of other sources: a run still using one (sources edited while it
 * runs) loses nothing it has loaded, and a child it starts afterwards fails
 * loudly rather than running stale code.
 */
function removeOtherBuilds(): void {
  for (const name of readdirSync(join(REPO, 'test'))) {
    if (name.startsWith(BUILD_PREFIX) && !name.startsWith(`${BUILD_PREFIX}staged-`)) {
      rmSync(join(REPO, 'test', name), { recursive: true, force: true })
    }
  }
}

function listTypeScript(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
    .map((path) => join(directory, path))
    .sort()
}
