import { copyFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { REPO } from './copy-checkout.js'

/**
 * Compiles generator/, runtime/ and the CLI entry (test/support/cli-process.ts)
 * file by file into `directory`, a folder directly under the repository laid
 * out like dist/ (so templates/ and package.json are found above it), and
 * returns the entry's path. A child process started on it runs the sources
 * under test without a TypeScript loader: tsx resolves and loads each of the
 * CLI's modules through its hooks, ~0.5 s of CPU per start that the tests
 * spawning the CLI dozens of times would pay again and again.
 */
export async function buildTestCli(directory: string): Promise<string> {
  const sources = [
    ...['generator', 'runtime'].flatMap((folder) => listTypeScript(join(REPO, folder))),
    join(REPO, 'test', 'support', 'cli-process.ts'),
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
  return join(directory, 'test', 'support', 'cli-process.js')
}

function listTypeScript(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
    .map((path) => join(directory, path))
}
