import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { UserError } from '../diagnostics/diagnostic.js'
import { temporaryPathOf } from '../emit/temporary-path.js'
import type { CliIo } from './cli-io.js'
import { readOwnPackage } from './read-own-package.js'
import { renderScaffold, type ScaffoldView } from './render-scaffold.js'

export interface InitOptions {
  /** Where to write the project (default: the working directory). */
  readonly directory?: string
  /** The restmint dependency to write instead of this version: a tarball path or a git URL. */
  readonly from?: string
  /** Write into a directory that is not empty, replacing the scaffold's files there. */
  readonly force?: boolean
}

/**
 * `restmint init [dir]`: writes a project that uses restmint (package.json,
 * resources.yaml, src/app.ts, tsconfig.json, .gitignore, README.md and one
 * test) and says what it wrote and what to run next. Refuses a directory that
 * holds anything unless `--force`. Each file is written beside its place and
 * renamed into it, so none is ever half-written.
 */
export function runInit(options: InitOptions, io: CliIo): number {
  const given = options.directory ?? '.'
  const target = resolve(io.cwd, given)
  if (existsSync(target) && !statSync(target).isDirectory()) {
    throw new UserError(`${given} is a file, not a directory; give restmint init a directory to write the project in`)
  }
  const present = existsSync(target) ? readdirSync(target) : []
  if (present.length > 0 && options.force !== true) {
    const shown = present.sort().slice(0, 5).join(', ')
    throw new UserError(
      `${given} is not empty (${shown}${present.length > 5 ? ', …' : ''}); restmint init writes into a new or empty ` +
        `directory: give another one (restmint init my-api), or pass --force to write the project's files over ` +
        `what is there (other files stay). Nothing was written.`,
    )
  }
  const own = readOwnPackage()
  const name = packageNameOf(basename(target))
  const view: ScaffoldView = {
    name,
    title: `${name} API`,
    restmint: options.from === undefined ? `^${own.version}` : dependencySpec(options.from, io.cwd),
    typescript: own.devDependencies.typescript ?? 'latest',
    vitest: own.devDependencies.vitest ?? 'latest',
    typesNode: own.devDependencies['@types/node'] ?? 'latest',
  }
  const files = renderScaffold(view)
  for (const [path, contents] of files) {
    const file = join(target, path)
    mkdirSync(dirname(file), { recursive: true })
    const staged = temporaryPathOf(file)
    rmSync(staged, { force: true })
    writeFileSync(staged, contents, { flag: 'wx' })
    renameSync(staged, file)
  }
  const shownTarget = relative(io.cwd, target) || '.'
  io.stdout(`Created a restmint project in ${shownTarget}/ (restmint ${view.restmint}):\n`)
  for (const path of files.keys()) io.stdout(`  wrote    ${join(shownTarget, path)}\n`)
  io.stdout('Next:\n')
  if (shownTarget !== '.') io.stdout(`  cd ${shownTarget}\n`)
  io.stdout('  npm install\n  npm run dev      # serves the API at http://127.0.0.1:3000 and follows every save\n')
  io.stdout('  npm test\n')
  return 0
}

/**
 * `--from`: a path that exists (a tarball, or a checkout) becomes an absolute `file:` spec, so that npm
 * finds it from the new project; anything else (a git URL, a version range) is written as given.
 */
function dependencySpec(from: string, cwd: string): string {
  const path = resolve(cwd, from)
  return existsSync(path) ? `file:${path}` : from
}

/** An npm package name from a directory name: lowercase, with only the characters npm allows. */
function packageNameOf(directoryName: string): string {
  const name = directoryName
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '')
  return name === '' ? 'my-api' : name
}
